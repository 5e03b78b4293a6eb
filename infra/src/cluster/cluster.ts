import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApiIfStale } from '../build-api.ts';
import { loadOrCreateSecrets, prepareDataDir, type DataDir } from '../data-dir.ts';
import { ejabberdClusterNodeName, joinEjabberdCluster, startEjabberd } from '../ejabberd.ts';
import { startJanus } from '../janus.ts';
import { startLocalPostgres } from '../postgres.ts';
import { signal, startProcess, type ExitInfo } from '../process.ts';
import { DEFAULT_LOG_ROTATION } from '../service-log.ts';
import { apiProcessOptions } from '../stack.ts';
import { API_READY_PATH, startHaproxy } from './haproxy.ts';
import { buildNetwork, type SimulatedNetwork } from './network.ts';
import { nodesOf, type ClusterRole, type Topology } from './topology.ts';

export type ClusterOptions = {
  repoRoot: string;
  dataDir: string;
  topology: Topology;
  /** An existing PostgreSQL server; without it the project's own cluster runs in the data folder. */
  databaseUrl?: string;
  /** Work inside this schema of the database (tests). */
  databaseSchema?: string;
  seedDemo: boolean;
  logLevel: string;
  log: (line: string) => void;
};

/** What a node runs: stopped gracefully, killed, or started again on the same address. */
type Service = { pid: number; exited: Promise<ExitInfo>; stop: () => Promise<void> };

/** One node of the running cluster. */
export type ClusterNode = {
  readonly name: string;
  readonly role: ClusterRole;
  readonly address: string;
  /** Whether its server runs (the browsers' node runs none of its own). */
  readonly running: boolean;
  /** Starts its server again (after {@link stop} or {@link kill}). */
  start(): Promise<void>;
  /** A graceful stop (SIGTERM): an API replica drains first. */
  stop(): Promise<void>;
  /** A machine lost: SIGKILL to everything the node runs, nothing said to anyone. */
  kill(): Promise<void>;
};

export type RunningCluster = {
  /** Where browsers go: the load balancer. */
  url: string;
  databaseUrl: string;
  dataDir: string;
  network: SimulatedNetwork;
  nodes: ReadonlyMap<string, ClusterNode>;
  node(name: string): ClusterNode;
  stop(): Promise<void>;
};

/** The Erlang cookie every ejabberd node shares, kept in the data folder beside secrets.json. */
function loadOrCreateCookie(dir: DataDir): string {
  const file = join(dir.root, 'erlang.cookie');
  if (!existsSync(file)) {
    writeFileSync(file, randomBytes(24).toString('hex'), { mode: 0o600, flag: 'wx' });
  }
  return readFileSync(file, 'utf8').trim();
}

/**
 * Starts the topology's cluster on this machine (decision 0041): its network of namespaces, the
 * ejabberd nodes joined into one cluster, the Janus servers, haproxy, then the API replicas (the
 * first alone, since it migrates and seeds the database). PostgreSQL is the machine's or the data
 * folder's, reached by every node through its Unix socket; the recordings folder is one path.
 * A failure part-way stops what had started.
 */
export async function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  const { topology, log } = options;
  const dir = prepareDataDir(options.dataDir);
  const apiBundle = await buildApiIfStale(options.repoRoot, log);
  const secrets = loadOrCreateSecrets(dir);
  const cookie = loadOrCreateCookie(dir);
  const logRotation = DEFAULT_LOG_ROTATION;
  const network = await buildNetwork({
    bridge: topology.network.bridge,
    bridgeAddress: topology.network.supervisorAddress,
    nodes: nodesOf(topology),
    ports: topology.ports,
    logDir: dir.logs,
  });
  const services = new Map<string, Service>();
  const postgres = options.databaseUrl ? undefined : await startLocalPostgres(dir, logRotation);
  const databaseUrl = options.databaseUrl ?? (postgres?.url as string);
  const lb = topology.loadBalancer.address;
  const [firstJanus] = topology.janus;
  const janusUrls = (address: string) => ({
    httpUrl: `http://${address}:${topology.ports.janusHttp}/janus`,
    wsUrl: `ws://${address}:${topology.ports.janusWebsocket}`,
  });

  const starters: Record<
    ClusterRole,
    (name: string, address: string) => Promise<Service | undefined>
  > = {
    xmpp: async (name, address) => {
      const server = await startEjabberd({
        dir: join(dir.root, 'nodes', name),
        domain: topology.xmppDomain,
        wsPort: topology.ports.xmppWebsocket,
        c2sPort: topology.ports.xmppClient,
        adminApiPort: topology.ports.xmppAdmin,
        jwtSecret: Buffer.from(secrets.xmppJwtSecret, 'base64url'),
        logRotation,
        netns: network.node(name).netns,
        cluster: {
          address,
          cookie,
          // The API replicas call it through the load balancer: that is the source it sees; the
          // supervisor checks its readiness from the bridge.
          adminApiAllowFrom: [`${lb}/32`, `${topology.network.supervisorAddress}/32`],
        },
      });
      // Joins a node already up (ejabberd's own clustering copies the shared tables).
      const peer = topology.xmpp.find((other) => other.name !== name && services.has(other.name));
      if (peer) await joinEjabberdCluster(server, ejabberdClusterNodeName(peer.address));
      return server;
    },
    janus: (name, address) =>
      startJanus({
        dir: join(dir.root, 'nodes', name),
        host: address,
        netns: network.node(name).netns,
        httpPort: topology.ports.janusHttp,
        wsPort: topology.ports.janusWebsocket,
        rtpPortRange: topology.ports.janusRtp,
        // Media only on the node's own interface, as on a machine of its own.
        iceEnforceList: 'eth0',
        tokenSecret: secrets.janusTokenSecret,
        adminKey: secrets.janusAdminKey,
        adminSecret: secrets.janusAdminSecret,
        recordingsDir: dir.recordings,
        logRotation,
      }),
    lb: (name) =>
      startHaproxy({
        topology,
        dir: join(dir.root, 'nodes', name),
        netns: network.node(name).netns,
      }),
    api: async (name, address) => {
      const proc = await startProcess(
        apiProcessOptions({
          repoRoot: options.repoRoot,
          bundle: apiBundle,
          logFile: join(dir.logs, `${name}.log`),
          logRotation,
          host: address,
          port: topology.ports.http,
          databaseUrl,
          ...(options.databaseSchema ? { databaseSchema: options.databaseSchema } : {}),
          dataDir: dir.root,
          secrets,
          xmpp: {
            domain: topology.xmppDomain,
            wsUrl: `ws://${lb}:${topology.ports.xmppWebsocket}/ws`,
            adminApiUrl: `http://${lb}:${topology.ports.xmppAdmin}/api`,
          },
          // Without a pool (JANUS_SERVERS) the API uses this one.
          janus: janusUrls(firstJanus?.address ?? ''),
          extraEnv: {
            JANUS_SERVERS: JSON.stringify(
              topology.janus.map((server) => ({
                name: server.name,
                ...(({ httpUrl, wsUrl }) => ({ httpUrl, websocketUrl: wsUrl }))(
                  janusUrls(server.address),
                ),
                capacity: server.capacity,
              })),
            ),
            // Every request comes through haproxy: believe exactly its X-Forwarded-For.
            TRUST_PROXY: lb,
            // The demo's logins on a node's own address: only the namespace's browsers reach it.
            ...(options.seedDemo ? { FRONTDESK_DEMO: '1' } : {}),
          },
          seedDemo: options.seedDemo,
          logLevel: options.logLevel,
          netns: network.node(name).netns,
        }),
      );
      try {
        await proc.waitUntilReady(
          async () =>
            (
              await fetch(`http://${address}:${topology.ports.http}${API_READY_PATH}`, {
                signal: AbortSignal.timeout(2000),
              })
            ).ok,
          { timeoutMs: 60_000, intervalMs: 100 },
        );
      } catch (error) {
        await proc.stop().catch(() => undefined);
        throw error;
      }
      return proc;
    },
    browsers: async () => undefined,
  };

  const nodes = new Map<string, ClusterNode>();
  for (const { name, role, address } of nodesOf(topology)) {
    const start = async () => {
      if (services.has(name)) return;
      const service = await starters[role](name, address);
      if (service) services.set(name, service);
      log(`${name} (${role}) is up at ${address}.`);
    };
    const stopWith = async (how: (service: Service) => Promise<void>) => {
      const service = services.get(name);
      if (!service) return;
      await how(service);
      services.delete(name);
    };
    nodes.set(name, {
      name,
      role,
      address,
      get running() {
        return services.has(name);
      },
      start,
      stop: () => stopWith((service) => service.stop()),
      kill: () =>
        stopWith(async (service) => {
          signal(-service.pid, 'SIGKILL');
          await service.exited;
          // What the supervisor keeps of it (its log's writer) is let go as after any exit.
          await service.stop();
        }),
    });
  }
  const node = (name: string) => {
    const found = nodes.get(name);
    if (!found) throw new Error(`no node ${name} in the cluster`);
    return found;
  };
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // Browsers' side first, the database last.
      for (const role of ['api', 'lb', 'janus', 'xmpp'] as const) {
        await Promise.all(
          [...nodes.values()]
            .filter((entry) => entry.role === role)
            .map((entry) => entry.stop().catch(() => undefined)),
        );
      }
      await postgres?.stop().catch(() => undefined);
      await network.stop();
    })());

  try {
    // ejabberd nodes one after another: each joins those already up.
    for (const entry of topology.xmpp) await node(entry.name).start();
    await Promise.all(topology.janus.map((entry) => node(entry.name).start()));
    await node(topology.loadBalancer.name).start();
    const [firstApi, ...moreApis] = topology.api;
    if (firstApi) await node(firstApi.name).start();
    await Promise.all(moreApis.map((entry) => node(entry.name).start()));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `http://${lb}:${topology.ports.http}`,
    databaseUrl,
    dataDir: dir.root,
    network,
    nodes,
    node,
    stop,
  };
}
