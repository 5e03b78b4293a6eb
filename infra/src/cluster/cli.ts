// `node scripts/cluster.mjs`: the simulated cluster of infra/src/cluster/topology.json (or
// CLUSTER_TOPOLOGY's file) on this machine, in the foreground until Ctrl-C or SIGTERM
// (docs/scaling.md). It runs inside a network namespace of its own (scripts/isolated).
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { defaultDataDir } from '../data-dir.ts';
import { ensureDebianPackages, RUNTIME_PACKAGES } from '../debian.ts';
import { buildAppsIfStale } from '../build-apps.ts';
import { startCluster } from './cluster.ts';
import { inPrivateNetwork } from './network.ts';
import { loadTopology } from './topology.ts';

const repoRoot = resolve(import.meta.dirname, '../../..');
const log = (line: string) => console.log(`[cluster] ${line}`);

// Plain strings, each optional; the topology file itself is validated (topologySchema).
const settings = {
  topologyFile: process.env.CLUSTER_TOPOLOGY,
  // Its own folder: the cluster's nodes must not meet `npm start`'s servers' state.
  dataDir: process.env.FRONTDESK_DATA_DIR ?? join(defaultDataDir(repoRoot).path, 'cluster'),
  databaseUrl: process.env.DATABASE_URL,
  logLevel: process.env.LOG_LEVEL ?? 'info',
};

if (!inPrivateNetwork()) {
  // Packages first: there is no network inside the namespace.
  ensureDebianPackages([...RUNTIME_PACKAGES, 'haproxy'], log);
  const result = spawnSync(
    resolve(repoRoot, 'scripts/isolated'),
    [process.execPath, resolve(repoRoot, 'scripts/cluster.mjs')],
    { stdio: 'inherit' },
  );
  process.exit(result.status ?? 1);
}

buildAppsIfStale(repoRoot, log);
const topology = loadTopology(settings.topologyFile);
const starting = startCluster({
  repoRoot,
  dataDir: settings.dataDir,
  topology,
  ...(settings.databaseUrl ? { databaseUrl: settings.databaseUrl } : {}),
  // SECURITY: the demo logins have published passwords; never write them into a database of
  // someone else's (DATABASE_URL), which a real API may also serve.
  seedDemo: !settings.databaseUrl,
  logLevel: settings.logLevel,
  log,
});
// A stop asked for mid-start waits for the start: startCluster is bounded by readiness deadlines.
let stopping = false;
const stopOn = (signalName: string) =>
  process.on(signalName, () => {
    if (stopping) return;
    stopping = true;
    log(`${signalName}: stopping…`);
    void starting
      .then((cluster) => cluster.stop())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  });
stopOn('SIGINT');
stopOn('SIGTERM');

const cluster = await starting;
log(`The cluster is up: browsers reach ${cluster.url} from inside this namespace, e.g.`);
log(`  sudo nsenter --net=/proc/${process.pid}/ns/net curl ${cluster.url}/readyz`);
log(
  `  sudo nsenter --net=${cluster.network.node(topology.browsers.name).netns} chromium --no-sandbox ${cluster.url}/`,
);
