import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { freePort } from './process.ts';
import { startStack, type PublicSite, type RunningStack, type StackOptions } from './stack.ts';

/** The machine's PostgreSQL through its Unix socket: sockets cross network namespaces. */
export const machineDatabaseUrl =
  process.env.DATABASE_URL ?? 'postgresql://postgres@/test?host=/var/run/postgresql';

export type DisposableStack = RunningStack & { schema: string };

/**
 * Drops a test or benchmark run's schema of the machine's database, and all it holds, with the
 * API's job queue beside it (pg-boss's `<schema>_jobs`, apps/api/src/recordings/recording-jobs.ts).
 */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: machineDatabaseUrl });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}", "${schema}_jobs" cascade`);
  } finally {
    await client.end();
  }
}

/**
 * The whole stack for one test or benchmark run: a temporary data folder, a fresh schema of the
 * machine's database, free ports, Janus on `veth0` inside scripts/isolated. `stop` drops the
 * schema and, unless `keepData`, the folder.
 */
export async function startDisposableStack(
  options: {
    name: string;
    logLevel: string;
    log: (line: string) => void;
    keepData?: boolean;
    /** Public mode: Caddy in front (e2e/tests/public-https.spec.ts). */
    publicSite?: PublicSite;
  } & Pick<StackOptions, 'turnTls' | 'certificateCheckMs'>,
): Promise<DisposableStack> {
  const dataDir = mkdtempSync(join(tmpdir(), `frontdesk-${options.name}-`));
  const schema = `${options.name}_${randomBytes(6).toString('hex')}`;
  const stack = await startStack({
    repoRoot: resolve(import.meta.dirname, '../..'),
    dataDir,
    host: '127.0.0.1',
    port: await freePort(),
    databaseUrl: machineDatabaseUrl,
    databaseSchema: schema,
    xmppDomain: 'frontdesk.localhost',
    // Inside scripts/isolated the veth pair is the only interface Janus can gather ICE on.
    ...(existsSync('/sys/class/net/veth0') ? { janusIceEnforceList: 'veth0' } : {}),
    janusRtpPorts: [20000, 20200],
    seedDemo: true,
    ...(options.publicSite ? { publicSite: options.publicSite } : {}),
    ...(options.turnTls ? { turnTls: options.turnTls } : {}),
    ...(options.certificateCheckMs ? { certificateCheckMs: options.certificateCheckMs } : {}),
    logLevel: options.logLevel,
    log: options.log,
  });
  return {
    url: stack.url,
    ...(stack.publicUrl ? { publicUrl: stack.publicUrl } : {}),
    databaseUrl: stack.databaseUrl,
    dataDir: stack.dataDir,
    get pids() {
      return stack.pids;
    },
    turn: stack.turn,
    get servers() {
      return stack.servers;
    },
    restart: stack.restart,
    schema,
    stop: async () => {
      await stack.stop();
      await dropSchema(schema);
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
