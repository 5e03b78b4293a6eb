import { createServer } from 'node:http';
import { resolve } from 'node:path';
import {
  buildAppsIfStale,
  loadTopology,
  machineDatabaseUrl,
  startDisposableCluster,
} from '@frontdesk/infra';

const repoRoot = resolve(import.meta.dirname, '../..');

/**
 * Brings the simulated cluster up once for the run (startDisposableCluster: a fresh schema of the
 * machine's database, a temporary data folder) and hands the journeys its address, database and
 * a control endpoint on the supervisor's loopback: `POST /<kill|stop|start>/<node>` (the cluster
 * lives in this process, the journeys in workers). Returns the teardown.
 */
export default async function globalSetup() {
  buildAppsIfStale(repoRoot, console.log);
  const topology = loadTopology();
  const cluster = await startDisposableCluster({
    name: 'cluster',
    topology,
    log: console.log,
    // Keep the nodes' logs when asked: they are the first thing to read after a failure.
    keepData: process.env.FRONTDESK_KEEP_E2E_DATA === '1',
  });
  const control = createServer((request, response) => {
    const [, action, name] = /^\/(kill|stop|start)\/([a-z0-9]+)$/.exec(request.url ?? '') ?? [];
    const node = name === undefined ? undefined : cluster.nodes.get(name);
    if (request.method !== 'POST' || !node || !action) {
      response.writeHead(404).end();
      return;
    }
    node[action as 'kill' | 'stop' | 'start']().then(
      () => response.writeHead(204).end(),
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((done) => control.listen(0, '127.0.0.1', done));
  const address = control.address();
  if (address === null || typeof address === 'string') throw new Error('control has no port');
  Object.assign(process.env, {
    FRONTDESK_URL: cluster.url,
    FRONTDESK_DATABASE_URL: machineDatabaseUrl,
    FRONTDESK_DATABASE_SCHEMA: cluster.schema,
    FRONTDESK_DATA_DIR: cluster.dataDir,
    FRONTDESK_CONTROL_URL: `http://127.0.0.1:${address.port}`,
    FRONTDESK_BROWSERS_NETNS: cluster.network.node(topology.browsers.name).netns,
    FRONTDESK_CLUSTER_TOPOLOGY: JSON.stringify(topology),
  });
  return async () => {
    control.close();
    await cluster.stop();
  };
}
