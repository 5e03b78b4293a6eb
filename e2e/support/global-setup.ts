import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { buildAppsIfStale, startDisposableStack } from '@frontdesk/infra';

/**
 * Starts the whole stack once for the run (fresh schema, temporary data folder) and hands its
 * URL and database to the journeys through the environment. The fault journeys restart servers
 * through a small control endpoint on loopback, since the stack lives in this process and the
 * journeys in workers. Returns the teardown.
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
  const control = createServer((request, response) => {
    const server = /^\/restart\/(xmpp|janus)$/.exec(request.url ?? '')?.[1];
    if (request.method !== 'POST' || (server !== 'xmpp' && server !== 'janus')) {
      response.writeHead(404).end();
      return;
    }
    stack.restart(server).then(
      () => response.writeHead(204).end(),
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((done) => control.listen(0, '127.0.0.1', done));
  const address = control.address();
  if (address === null || typeof address === 'string')
    throw new Error('control server has no port');
  process.env.FRONTDESK_URL = stack.url;
  process.env.FRONTDESK_DATABASE_URL = stack.databaseUrl;
  process.env.FRONTDESK_DATABASE_SCHEMA = stack.schema;
  process.env.FRONTDESK_DATA_DIR = stack.dataDir;
  process.env.FRONTDESK_CONTROL_URL = `http://127.0.0.1:${address.port}`;
  return async () => {
    control.close();
    await stack.stop();
  };
}
