// The simulated cluster of decision 0041 (one network namespace per node on this machine), with
// the project's topology cut to `each` servers of every role, for the benchmark's one-of-each
// and two-of-each figures: the same network path, load balancer and addresses for both.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadTopology, machineDatabaseUrl, startDisposableCluster } from '@frontdesk/infra';
import { isJanusOf } from '../../../infra/src/janus.ts';
import { listProcesses } from '../../../infra/src/process.ts';
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
  const cluster = await startDisposableCluster({ name: 'bench_cluster', topology, log });
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
      schema: cluster.schema,
      janusPids,
    });
  } finally {
    await cluster.stop();
  }
}
