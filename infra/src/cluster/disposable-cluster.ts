import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { dropSchema, machineDatabaseUrl } from '../disposable-stack.ts';
import { startCluster, type RunningCluster } from './cluster.ts';
import type { Topology } from './topology.ts';

export type DisposableCluster = RunningCluster & { schema: string };

/**
 * The simulated cluster for one test or benchmark run (inside scripts/isolated): a temporary
 * data folder, a fresh schema of the machine's database, the demo data. `stop`, or a start that
 * fails, drops the schema and, unless `keepData`, the folder.
 */
export async function startDisposableCluster(options: {
  name: string;
  topology: Topology;
  log: (line: string) => void;
  keepData?: boolean;
}): Promise<DisposableCluster> {
  const dataDir = mkdtempSync(join(tmpdir(), `frontdesk-${options.name}-`));
  const schema = `${options.name}_${randomBytes(6).toString('hex')}`;
  const removeData = async () => {
    await dropSchema(schema);
    if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
  };
  let cluster: RunningCluster;
  try {
    cluster = await startCluster({
      repoRoot: resolve(import.meta.dirname, '../../..'),
      dataDir,
      topology: options.topology,
      databaseUrl: machineDatabaseUrl,
      databaseSchema: schema,
      seedDemo: true,
      logLevel: 'warn',
      log: options.log,
    });
  } catch (error) {
    // startCluster stopped what it had started; the first API replica may have made the schema.
    await removeData();
    throw error;
  }
  return {
    ...cluster,
    schema,
    stop: async () => {
      await cluster.stop();
      await removeData();
    },
  };
}
