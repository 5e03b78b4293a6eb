import { resolve } from 'node:path';
import { buildAppsIfStale, startDisposableStack } from '@frontdesk/infra';

/**
 * Starts the whole stack once for the run (fresh schema, temporary data folder) and hands its
 * URL and database to the journeys through the environment. Returns the teardown.
 */
export default async function globalSetup() {
  // A run started directly (not through npm test) must not test yesterday's build.
  buildAppsIfStale(resolve(import.meta.dirname, '../..'), console.log);
  const stack = await startDisposableStack({
    name: 'e2e',
    logLevel: 'warn',
    log: console.log,
    // Keep the services' logs when asked: they are the first thing to read after a failure.
    keepData: process.env.FRONTDESK_KEEP_E2E_DATA === '1',
  });
  process.env.FRONTDESK_URL = stack.url;
  process.env.FRONTDESK_DATABASE_URL = stack.databaseUrl;
  process.env.FRONTDESK_DATABASE_SCHEMA = stack.schema;
  process.env.FRONTDESK_DATA_DIR = stack.dataDir;
  return () => stack.stop();
}
