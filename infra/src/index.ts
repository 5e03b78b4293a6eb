export { startStack, type RunningStack, type StackOptions } from './stack.ts';
export {
  startDisposableStack,
  machineDatabaseUrl,
  type DisposableStack,
} from './disposable-stack.ts';
export { startCoturn, type RunningCoturn } from './coturn.ts';
export {
  clusterNodeCtl,
  joinEjabberdCluster,
  startEjabberd,
  type RunningEjabberd,
} from './ejabberd.ts';
export { startJanus, type JanusOptions, type RunningJanus } from './janus.ts';
export { mintJanusToken } from './janus-token.ts';
export { freePort } from './process.ts';
export { buildAppsIfStale } from './build-apps.ts';
export { ensureDebianPackages, RUNTIME_PACKAGES, TEST_PACKAGES } from './debian.ts';
export { makeTestCertificates, type TestCertificates } from './test-certificates.ts';
export { startCluster, type ClusterNode, type RunningCluster } from './cluster/cluster.ts';
export { loadTopology, type Topology } from './cluster/topology.ts';
export { startDisposableCluster, type DisposableCluster } from './cluster/disposable-cluster.ts';
