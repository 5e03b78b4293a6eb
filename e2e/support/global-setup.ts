import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { freePort, startStack } from '@frontdesk/infra';

/** The machine's PostgreSQL through its Unix socket: sockets cross network namespaces. */
const databaseUrl =
  process.env.DATABASE_URL ?? 'postgresql://postgres@/test?host=/var/run/postgresql';

/**
 * Starts the whole stack once for the run, on a fresh schema and a temporary data folder, and
 * hands its URL to the tests through `FRONTDESK_URL`. Returns the teardown.
 */
export default async function globalSetup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'frontdesk-e2e-'));
  const schema = `e2e_${randomBytes(6).toString('hex')}`;
  const stack = await startStack({
    repoRoot: resolve(import.meta.dirname, '../..'),
    dataDir,
    host: '127.0.0.1',
    port: await freePort(),
    databaseUrl,
    databaseSchema: schema,
    xmppDomain: 'frontdesk.localhost',
    // Inside scripts/isolated the veth pair is the only interface Janus can gather ICE on.
    ...(existsSync('/sys/class/net/veth0') ? { janusIceEnforceList: 'veth0' } : {}),
    janusRtpPorts: [20000, 20200],
    seedDemo: true,
    logLevel: 'warn',
    log: console.log,
  });
  process.env.FRONTDESK_URL = stack.url;
  process.env.FRONTDESK_DATABASE_URL = databaseUrl;
  process.env.FRONTDESK_DATABASE_SCHEMA = schema;

  return async () => {
    await stack.stop();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
    // Keep the services' logs when a journey failed; they are the first thing to read.
    if (process.env.FRONTDESK_KEEP_E2E_DATA !== '1')
      rmSync(dataDir, { recursive: true, force: true });
  };
}
