// The simulated cluster of decision 0041 (one network namespace per node on this machine), with
// the project's topology cut to `each` servers of every role, for the benchmark's one-of-each
// and two-of-each figures: the same network path, load balancer and addresses for both.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { loadTopology, machineDatabaseUrl, startCluster } from '@frontdesk/infra';
import { isJanusOf } from '../../../infra/src/janus.ts';
import { listProcesses } from '../../../infra/src/process.ts';
import { repoRoot } from '../paths.ts';
import type { CallTarget } from './calls.ts';

export async function onSimulatedCluster<T>(
  each: number,
  log: (line: string) => void,
  use: (target: CallTarget) => Promise<T>,
): Promise<T> {
  const full = loadTopology();
  const topology = {
    ...full,
    api: full.api.slice(0, each),
    xmpp: full.xmpp.slice(0, each),
    janus: full.janus.slice(0, each),
  };
  const dataDir = mkdtempSync(join(tmpdir(), 'frontdesk-bench-cluster-'));
  const schema = `bench_cluster_${randomBytes(6).toString('hex')}`;
  // The API makes the demo logins (Cy) on a loopback address only, or when told: the cluster's
  // addresses exist only inside this run's network namespace.
  process.env.FRONTDESK_DEMO = '1';
  const cluster = await startCluster({
    repoRoot,
    dataDir,
    topology,
    databaseUrl: machineDatabaseUrl,
    databaseSchema: schema,
    seedDemo: true,
    logLevel: 'warn',
    log,
  });
  try {
    // haproxy lets a replica in after its own checks, a moment after the replica is ready.
    const deadline = Date.now() + 30_000;
    while (
      !(await fetch(`${cluster.url}/api/config`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (Date.now() > deadline) throw new Error(`${cluster.url} did not answer within 30 s`);
      await sleep(250);
    }
    // Each Janus runs in its node's namespace, but in this PID namespace: found by its folder.
    const janusDirs = topology.janus.map((node) => join(cluster.dataDir, 'nodes', node.name));
    const janusPids = listProcesses()
      .filter((proc) => janusDirs.some((dir) => isJanusOf(dir, proc)))
      .map((proc) => proc.pid);
    if (janusPids.length !== janusDirs.length) {
      throw new Error(
        `found ${janusPids.length} of the cluster's ${janusDirs.length} Janus processes`,
      );
    }
    return await use({
      name: `${each} of each (simulated cluster)`,
      url: cluster.url,
      databaseUrl: machineDatabaseUrl,
      schema,
      janusPids,
    });
  } finally {
    await cluster.stop();
    const client = new pg.Client({ connectionString: machineDatabaseUrl });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`).finally(() => client.end());
    rmSync(dataDir, { recursive: true, force: true });
  }
}
