import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import {
  buildAppsIfStale,
  clusterNodeCtl,
  loadTopology,
  machineDatabaseUrl,
  startDisposableCluster,
} from '@frontdesk/infra';

const repoRoot = resolve(import.meta.dirname, '../..');

/**
 * Brings the simulated cluster up once for the run (startDisposableCluster: a fresh schema of the
 * machine's database, a temporary data folder) and hands the journeys its address, database and
 * a control endpoint on the supervisor's loopback (the cluster lives in this process, the
 * journeys in workers): `POST /<kill|stop|start>/<node>`, and `GET /xmpp-sessions/<node>`, the
 * ejabberd node's `connected_users_info` (which node holds each session). Returns the teardown.
 */
export default async function globalSetup() {
  buildAppsIfStale(repoRoot, console.log);
  const topology = loadTopology();
  // The journeys read each replica's /metrics on its own address, from the supervisor's side of
  // the bridge (e2e/cluster/holders.ts); every other address is still refused. The replicas
  // inherit this process's environment.
  process.env.METRICS_ALLOWED_ADDRESSES = topology.network.supervisorAddress;
  const cluster = await startDisposableCluster({
    name: 'cluster',
    topology,
    log: console.log,
    // Keep the nodes' logs when asked: they are the first thing to read after a failure.
    keepData: process.env.FRONTDESK_KEEP_E2E_DATA === '1',
  });
  const xmppSessions = (name: string) =>
    // startCluster keeps each node's files in `<data>/nodes/<name>`.
    clusterNodeCtl(join(cluster.dataDir, 'nodes', name), cluster.network.node(name).netns, [
      'connected_users_info',
    ]);
  const control = createServer((request, response) => {
    const xmppNode = /^\/xmpp-sessions\/([a-z0-9]+)$/.exec(request.url ?? '')?.[1];
    if (request.method === 'GET' && xmppNode && cluster.nodes.get(xmppNode)?.role === 'xmpp') {
      xmppSessions(xmppNode).then(
        (sessions) => response.writeHead(200, { 'content-type': 'text/plain' }).end(sessions),
        (error: unknown) => response.writeHead(500).end(String(error)),
      );
      return;
    }
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
