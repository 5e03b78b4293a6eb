// `node scripts/cluster.mjs`: the cluster of infra/src/cluster/topology.json (or CLUSTER_TOPOLOGY's
// file), in the foreground until Ctrl-C or SIGTERM (docs/scaling.md):
//   (no argument)    every node on this machine, the simulated cluster, inside a network
//                    namespace of its own (scripts/isolated);
//   --node <name>    that node's server alone, on this machine's own network (a cluster of machines);
//   --make-secrets   the shared secrets, made in the data folder to be copied to every machine.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultDataDir } from '../data-dir.ts';
import { ensureDebianPackages, RUNTIME_PACKAGES } from '../debian.ts';
import { buildAppsIfStale } from '../build-apps.ts';
import { makeSharedSecrets, startCluster, startMachineNode } from './cluster.ts';
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

const { values: args } = parseArgs({
  options: { node: { type: 'string' }, 'make-secrets': { type: 'boolean' } },
});

/** Stops what `starting` brings up on SIGINT or SIGTERM, even mid-start, then exits. */
function stopOnSignals(starting: Promise<{ stop: () => Promise<void> }>) {
  // A stop asked for mid-start waits for the start: it is bounded by readiness deadlines.
  let stopping = false;
  for (const signalName of ['SIGINT', 'SIGTERM']) {
    process.on(signalName, () => {
      if (stopping) return;
      stopping = true;
      log(`${signalName}: stopping…`);
      void starting
        .then((started) => started.stop())
        .then(
          () => process.exit(0),
          () => process.exit(1),
        );
    });
  }
  return () => stopping;
}

if (args['make-secrets']) {
  for (const file of makeSharedSecrets(settings.dataDir)) log(`Made (or kept): ${file}`);
  log('Copy them, owner-only, into the data folder of every machine (docs/scaling.md).');
} else if (args.node !== undefined) {
  // On the machine's own network: no namespace, and no simulated network.
  ensureDebianPackages([...RUNTIME_PACKAGES, 'haproxy'], log);
  const starting = startMachineNode({
    repoRoot,
    dataDir: settings.dataDir,
    topology: loadTopology(settings.topologyFile),
    name: args.node,
    ...(settings.databaseUrl ? { databaseUrl: settings.databaseUrl } : {}),
    logLevel: settings.logLevel,
    log,
  });
  const stopping = stopOnSignals(starting);
  const node = await starting;
  // A server that ends by itself ends this process with an error: the service manager restarts both.
  void node.exited.then((exit) => {
    if (stopping()) return;
    log(`${node.name}'s server ended by itself (${JSON.stringify(exit)}).`);
    process.exit(1);
  });
} else if (!inPrivateNetwork()) {
  // Packages first: there is no network inside the namespace.
  ensureDebianPackages([...RUNTIME_PACKAGES, 'haproxy'], log);
  const result = spawnSync(
    resolve(repoRoot, 'scripts/isolated'),
    [process.execPath, resolve(repoRoot, 'scripts/cluster.mjs')],
    { stdio: 'inherit' },
  );
  process.exit(result.status ?? 1);
} else {
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
  stopOnSignals(starting);
  const cluster = await starting;
  log(`The cluster is up: browsers reach ${cluster.url} from inside this namespace, e.g.`);
  log(`  sudo nsenter --net=/proc/${process.pid}/ns/net curl ${cluster.url}/readyz`);
  log(
    `  sudo nsenter --net=${cluster.network.node(topology.browsers.name).netns} chromium --no-sandbox ${cluster.url}/`,
  );
}
