import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { buildApiIfStale } from '../build-api.ts';
import { buildAppsIfStale } from '../build-apps.ts';
import {
  loadOrCreateSecrets,
  prepareDataDir,
  readCopiedSecrets,
  type DataDir,
  type Secrets,
} from '../data-dir.ts';
import {
  EJABBERD_CLUSTER_DIST_PORT,
  ejabberdClusterNodeName,
  joinEjabberdCluster,
  startEjabberd,
  type RunningEjabberd,
} from '../ejabberd.ts';
import { startJanus } from '../janus.ts';
import { startLocalPostgres, type RunningPostgres } from '../postgres.ts';
import { signal, startProcess, type ExitInfo } from '../process.ts';
import { DEFAULT_LOG_ROTATION } from '../service-log.ts';
import { apiProcessOptions } from '../stack.ts';
import { API_READY_PATH, startHaproxy } from './haproxy.ts';
import { buildNetwork, type SimulatedNetwork } from './network.ts';
import { nodesOf, type ClusterRole, type Topology, type TopologyNode } from './topology.ts';

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

/** The Erlang cookie every ejabberd node shares: a file beside secrets.json. */
const cookieFile = (dir: DataDir) => join(dir.root, 'erlang.cookie');
const secretsFile = (dir: DataDir) => join(dir.root, 'secrets.json');

function loadOrCreateCookie(dir: DataDir): string {
  const file = cookieFile(dir);
  if (!existsSync(file)) {
    writeFileSync(file, randomBytes(24).toString('hex'), { mode: 0o600, flag: 'wx' });
  }
  return readFileSync(file, 'utf8').trim();
}

/**
 * Makes the cluster's shared secrets in a data folder (`secrets.json`, `erlang.cookie`, both
 * owner-only), keeping any already there, and returns their files: they are copied from there to
 * every machine (docs/scaling.md, "Across machines").
 */
export function makeSharedSecrets(dataDir: string): string[] {
  const dir = prepareDataDir(dataDir);
  loadOrCreateSecrets(dir);
  loadOrCreateCookie(dir);
  return [secretsFile(dir), cookieFile(dir)];
}

/**
 * A shared secret's file on a machine of the cluster: copied there, never made there, since a
 * secret made on one machine would differ from the other machines'. SECURITY: owner-only.
 */
function copiedSecretFile(file: string): string {
  if (!existsSync(file)) {
    throw new Error(
      `${file} is missing: copy it from where the cluster's secrets were made (scripts/cluster.mjs --make-secrets; docs/scaling.md, "Across machines")`,
    );
  }
  if ((statSync(file).mode & 0o077) !== 0) {
    throw new Error(`${file} may be read by others than its owner: chmod 600 it`);
  }
  return file;
}

/**
 * The shared secrets copied to this machine, read as they are: a secret this version adds and
 * the file lacks is refused by name, never made here, where it would be one no other machine has.
 */
const copiedSecrets = (dir: DataDir): Secrets =>
  readCopiedSecrets(copiedSecretFile(secretsFile(dir)));

/** What a node's server is started with, in the simulated cluster and on a machine of its own. */
type NodeSettings = {
  repoRoot: string;
  dir: DataDir;
  topology: Topology;
  /** Read when a role needs them: the load balancer's node never does. */
  secrets: () => Secrets;
  cookie: () => string;
  /** Built when an API replica starts. */
  apiBundle: () => Promise<string>;
  /** The one database of every API replica. */
  databaseUrl: string | undefined;
  databaseSchema?: string;
  seedDemo: boolean;
  logLevel: string;
  /** A simulated node's network namespace; none on a machine of its own. */
  netns: (name: string) => string | undefined;
  /**
   * Where the supervisor checks ejabberd's readiness from when it is not on the node's own
   * machine: the simulated cluster's bridge. The node's admin API lets it in.
   */
  supervisorAddress?: string;
};

/** Whether ejabberd's distribution port at `address` takes a connection, within a few seconds. */
function distributionAnswers(address: string, from: string | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({
      host: address,
      port: EJABBERD_CLUSTER_DIST_PORT,
      ...(from ? { localAddress: from } : {}),
      timeout: 3000,
    });
    const done = (answered: boolean) => {
      socket.destroy();
      resolve(answered);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

/**
 * Joins a started ejabberd node to its cluster: to the first other node of the topology that
 * answers (ejabberd's own clustering copies the shared tables; a node already in that cluster
 * stays as it is). With none up, the topology's first node founds the cluster, and a node whose
 * folder holds the tables of an earlier start (`remembers`) runs on them: the others join it
 * again when they are back. A new node other than the first is refused then: it would found a
 * second cluster, whose tables a later join would throw away.
 */
async function joinXmppCluster(
  server: RunningEjabberd,
  self: string,
  remembers: boolean,
  settings: NodeSettings,
): Promise<void> {
  const { xmpp } = settings.topology;
  // On a machine of its own, the probe leaves from the node's address, as Erlang's connection
  // does (inet_dist_connect_options): a firewall open to the chat nodes alone lets both through.
  // The simulated cluster probes from the supervisor, which every node's firewall lets in.
  const from = settings.netns(self) ? undefined : xmpp.find((node) => node.name === self)?.address;
  const tried: string[] = [];
  for (const peer of xmpp) {
    if (peer.name === self) continue;
    tried.push(peer.name);
    if (!(await distributionAnswers(peer.address, from))) continue;
    await joinEjabberdCluster(server, ejabberdClusterNodeName(peer.address));
    return;
  }
  if (remembers || self === xmpp[0]?.name) return;
  throw new Error(
    `${self} is a new ejabberd node and none of ${tried.join(', ')} answers on port ${EJABBERD_CLUSTER_DIST_PORT}: start ${xmpp[0]?.name} first`,
  );
}

const janusUrls = (topology: Topology, address: string) => ({
  httpUrl: `http://${address}:${topology.ports.janusHttp}/janus`,
  wsUrl: `ws://${address}:${topology.ports.janusWebsocket}`,
});

/**
 * Starts one node's server, the same way wherever the node is: in its namespace of the simulated
 * cluster, or on a machine of its own (`netns` gives none). Resolves once it is ready; a failure
 * stops what it had started. The browsers' node runs nothing.
 */
async function startNodeServer(
  settings: NodeSettings,
  { name, role, address }: TopologyNode,
): Promise<Service | undefined> {
  const { topology, dir } = settings;
  const logRotation = DEFAULT_LOG_ROTATION;
  const nodeDir = join(dir.root, 'nodes', name);
  const netns = settings.netns(name);
  const inNamespace = netns ? { netns } : {};
  const lb = topology.loadBalancer.address;
  switch (role) {
    case 'xmpp': {
      // Mnesia's schema file: the node's tables from an earlier start, its cluster among them.
      const remembers = existsSync(join(nodeDir, 'spool', 'schema.DAT'));
      const server = await startEjabberd({
        dir: nodeDir,
        domain: topology.xmppDomain,
        wsPort: topology.ports.xmppWebsocket,
        c2sPort: topology.ports.xmppClient,
        adminApiPort: topology.ports.xmppAdmin,
        jwtSecret: Buffer.from(settings.secrets().xmppJwtSecret, 'base64url'),
        logRotation,
        ...inNamespace,
        cluster: {
          address,
          cookie: settings.cookie(),
          // The API replicas call it through the load balancer: that is the source it sees.
          adminApiAllowFrom: [lb, settings.supervisorAddress]
            .filter((from) => from !== undefined)
            .map((from) => `${from}/32`),
        },
      });
      try {
        await joinXmppCluster(server, name, remembers, settings);
      } catch (error) {
        await server.stop().catch(() => undefined);
        throw error;
      }
      return server;
    }
    case 'janus': {
      const secrets = settings.secrets();
      return startJanus({
        dir: nodeDir,
        host: address,
        ...inNamespace,
        httpPort: topology.ports.janusHttp,
        wsPort: topology.ports.janusWebsocket,
        rtpPortRange: topology.ports.janusRtp,
        // Media candidates on the node's own address only, not on other interfaces it may have.
        iceEnforceList: address,
        tokenSecret: secrets.janusTokenSecret,
        adminKey: secrets.janusAdminKey,
        adminSecret: secrets.janusAdminSecret,
        recordingsDir: dir.recordings,
        logRotation,
      });
    }
    case 'lb':
      return startHaproxy({ topology, dir: nodeDir, ...inNamespace });
    case 'api': {
      if (!settings.databaseUrl) throw new Error(`${name}: an API replica needs DATABASE_URL`);
      const proc = await startProcess(
        apiProcessOptions({
          repoRoot: settings.repoRoot,
          bundle: await settings.apiBundle(),
          logFile: join(dir.logs, `${name}.log`),
          logRotation,
          host: address,
          port: topology.ports.http,
          databaseUrl: settings.databaseUrl,
          ...(settings.databaseSchema ? { databaseSchema: settings.databaseSchema } : {}),
          dataDir: dir.root,
          secrets: settings.secrets(),
          xmpp: {
            domain: topology.xmppDomain,
            wsUrl: `ws://${lb}:${topology.ports.xmppWebsocket}/ws`,
            adminApiUrl: `http://${lb}:${topology.ports.xmppAdmin}/api`,
          },
          // Without a pool (JANUS_SERVERS) the API uses this one.
          janus: janusUrls(topology, topology.janus[0]?.address ?? ''),
          extraEnv: {
            JANUS_SERVERS: JSON.stringify(
              topology.janus.map((server) => {
                const { httpUrl, wsUrl } = janusUrls(topology, server.address);
                return {
                  name: server.name,
                  httpUrl,
                  websocketUrl: wsUrl,
                  capacity: server.capacity,
                };
              }),
            ),
            // Every request comes through haproxy: believe exactly its X-Forwarded-For.
            TRUST_PROXY: lb,
            // The demo's logins on a node's own address: only the namespace's browsers reach it.
            ...(settings.seedDemo ? { FRONTDESK_DEMO: '1' } : {}),
          },
          seedDemo: settings.seedDemo,
          logLevel: settings.logLevel,
          ...inNamespace,
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
    }
    case 'browsers':
      return undefined;
  }
}

/**
 * Runs `start` for each entry at once and, when one fails, waits for the others to have started
 * or failed too before rethrowing the first failure: a server still starting then would be
 * missed by the stop that follows, and outlive the cluster.
 */
async function startAll<T>(entries: readonly T[], start: (entry: T) => Promise<void>) {
  const results = await Promise.allSettled(entries.map(start));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Starts the topology's cluster on this machine (decision 0041): its network of namespaces, the
 * ejabberd nodes joined into one cluster, the Janus servers, haproxy, then the API replicas (the
 * first alone, since it migrates and seeds the database). PostgreSQL is the machine's or the data
 * folder's, reached by every node through its Unix socket; the recordings folder is one path.
 * A failure anywhere in the start stops everything started before it, the network included.
 */
export async function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  const { topology, log } = options;
  const dir = prepareDataDir(options.dataDir);
  // Before any server starts: a build that fails leaves nothing to undo.
  const apiBundle = await buildApiIfStale(options.repoRoot, log);
  const network = await buildNetwork({
    bridge: topology.network.bridge,
    bridgeAddress: topology.network.supervisorAddress,
    nodes: nodesOf(topology),
    ports: topology.ports,
    logDir: dir.logs,
  });
  const services = new Map<string, Service>();
  const nodes = new Map<string, ClusterNode>();
  let postgres: RunningPostgres | undefined;
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

  const node = (name: string) => {
    const found = nodes.get(name);
    if (!found) throw new Error(`no node ${name} in the cluster`);
    return found;
  };

  try {
    postgres = options.databaseUrl
      ? undefined
      : await startLocalPostgres(dir, DEFAULT_LOG_ROTATION);
    const secrets = loadOrCreateSecrets(dir);
    const cookie = loadOrCreateCookie(dir);
    const settings: NodeSettings = {
      repoRoot: options.repoRoot,
      dir,
      topology,
      secrets: () => secrets,
      cookie: () => cookie,
      apiBundle: async () => apiBundle,
      databaseUrl: options.databaseUrl ?? postgres?.url,
      ...(options.databaseSchema ? { databaseSchema: options.databaseSchema } : {}),
      seedDemo: options.seedDemo,
      logLevel: options.logLevel,
      netns: (name) => network.node(name).netns,
      supervisorAddress: topology.network.supervisorAddress,
    };
    for (const entry of nodesOf(topology)) {
      const { name, role, address } = entry;
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
        start: async () => {
          if (services.has(name)) return;
          const service = await startNodeServer(settings, entry);
          if (service) services.set(name, service);
          log(`${name} (${role}) is up at ${address}.`);
        },
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
    const start = (name: string) => node(name).start();
    // ejabberd nodes one after another: each joins those already up.
    for (const entry of topology.xmpp) await start(entry.name);
    await startAll(topology.janus, (entry) => start(entry.name));
    await start(topology.loadBalancer.name);
    const [firstApi, ...moreApis] = topology.api;
    if (firstApi) await start(firstApi.name);
    await startAll(moreApis, (entry) => start(entry.name));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `http://${topology.loadBalancer.address}:${topology.ports.http}`,
    databaseUrl: options.databaseUrl ?? (postgres?.url as string),
    dataDir: dir.root,
    network,
    nodes,
    node,
    stop,
  };
}

/** One node's server on a machine of its own ({@link startMachineNode}). */
export type MachineNode = TopologyNode & {
  /** Resolves when the server has exited, also when nobody asked it to. */
  exited: Promise<ExitInfo>;
  stop(): Promise<void>;
};

/**
 * Starts the one node of the topology that this machine is (`scripts/cluster.mjs --node <name>`),
 * with the same settings as the simulated cluster gives it, on the machine's own network: the
 * node's address must be one of this machine's. Its data folder holds the shared secrets, copied
 * there (never made: see {@link copiedSecretFile}), its server's folder under `nodes/<name>`,
 * the logs and the recordings and uploads folders (mounted from one file server for a cluster).
 * An API replica needs `databaseUrl`, the one database; it never seeds the demo data.
 */
export async function startMachineNode(options: {
  repoRoot: string;
  dataDir: string;
  topology: Topology;
  name: string;
  databaseUrl?: string;
  logLevel: string;
  log: (line: string) => void;
}): Promise<MachineNode> {
  const { topology, log } = options;
  const entry = nodesOf(topology).find((candidate) => candidate.name === options.name);
  if (!entry) {
    throw new Error(
      `no node ${options.name} in the topology (${nodesOf(topology)
        .map((candidate) => candidate.name)
        .join(', ')})`,
    );
  }
  if (entry.role === 'browsers') {
    throw new Error(`${entry.name} is the simulated cluster's browsers: it runs no server`);
  }
  const local = Object.values(networkInterfaces()).flatMap((addresses) =>
    (addresses ?? []).map((address) => address.address),
  );
  if (!local.includes(entry.address)) {
    throw new Error(
      `${entry.name}'s address ${entry.address} is not one of this machine's (${local.join(', ')}): start it on its own machine`,
    );
  }
  const dir = prepareDataDir(options.dataDir);
  const service = await startNodeServer(
    {
      repoRoot: options.repoRoot,
      dir,
      topology,
      secrets: () => copiedSecrets(dir),
      cookie: () => readFileSync(copiedSecretFile(cookieFile(dir)), 'utf8').trim(),
      // What an API replica serves and runs, built on its machine.
      apiBundle: () => {
        buildAppsIfStale(options.repoRoot, log);
        return buildApiIfStale(options.repoRoot, log);
      },
      databaseUrl: options.databaseUrl,
      // SECURITY: the demo logins have published passwords; a cluster's database is a real one.
      seedDemo: false,
      logLevel: options.logLevel,
      netns: () => undefined,
    },
    entry,
  );
  if (!service) throw new Error(`${entry.name} started no server`);
  log(`${entry.name} (${entry.role}) is up at ${entry.address}.`);
  return { ...entry, exited: service.exited, stop: service.stop };
}
