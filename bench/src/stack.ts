import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, startStack } from '@frontdesk/infra';
import { repoRoot } from './paths.ts';
import { childPid } from './proc.ts';

/** The machine's PostgreSQL through its Unix socket, as `npm test` uses it (sockets cross namespaces). */
const databaseUrl =
  process.env.DATABASE_URL ?? 'postgresql://postgres@/test?host=/var/run/postgresql';

/** The whole stack on a fresh schema and a temporary data folder, as the e2e suite runs it. */
export type BenchStack = { url: string; apiPid: number; stop: () => Promise<void> };

export async function startBenchStack(log: (line: string) => void): Promise<BenchStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'frontdesk-bench-'));
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const stack = await startStack({
    repoRoot,
    dataDir,
    host: '127.0.0.1',
    port: await freePort(),
    databaseUrl,
    databaseSchema: schema,
    xmppDomain: 'frontdesk.localhost',
    ...(existsSync('/sys/class/net/veth0') ? { janusIceEnforceList: 'veth0' } : {}),
    janusRtpPorts: [20000, 20200],
    seedDemo: true,
    // Per-request logging would be part of what the throughput figures measure.
    logLevel: 'warn',
    log,
  });
  const apiPid = childPid('apps/api/src/server.ts');
  if (apiPid === undefined) throw new Error('The API process was not found among our children.');
  return {
    url: stack.url,
    apiPid,
    stop: async () => {
      await stack.stop();
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
