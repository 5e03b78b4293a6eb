import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { isIPv4 } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import {
  freePort,
  processInfo,
  readLogTail,
  startProcess,
  type ExitInfo,
  type ProcessInfo,
} from './process.ts';
import { DEFAULT_LOG_ROTATION, type LogRotation } from './service-log.ts';
import { renderTemplateFile } from './template.ts';

const execFileAsync = promisify(execFile);

/** ejabberd log levels (`loglevel` option). */
export type EjabberdLogLevel =
  'none' | 'emergency' | 'alert' | 'critical' | 'error' | 'warning' | 'notice' | 'info' | 'debug';

/** Options for {@link startEjabberd}. */
export interface EjabberdOptions {
  /**
   * Instance folder (created if missing): configs, `spool/` (Mnesia), `logs/`,
   * pid file. Reusing a folder keeps its persistent rooms; the Erlang node name
   * is derived from the folder, because Mnesia data is bound to it.
   */
  readonly dir: string;
  /** XMPP domain. Default `frontdesk.localhost`. */
  readonly domain?: string;
  /** XMPP over WebSocket listener (path `/ws`). Default: a free port. */
  readonly wsPort?: number;
  /** Plain XMPP client listener. Default: a free port. */
  readonly c2sPort?: number;
  /** Admin REST API listener (`/api`, loopback only). Default: a free port. */
  readonly adminApiPort?: number;
  /**
   * Raw HS256 key (at least 32 bytes) that our API signs user JWTs with. A
   * `Buffer` is fine; decode a base64url setting with `Buffer.from(s, 'base64url')`.
   */
  readonly jwtSecret: Uint8Array;
  /**
   * STUN server announced to clients (XEP-0215). Default `127.0.0.1`. No TURN server is: its
   * credentials come only with a call's room (decision 0015).
   */
  readonly stunHost?: string;
  /** Default 3478. */
  readonly stunPort?: number;
  /** Default `warning`: at `info`, mod_http_api logs call arguments such as room passwords. */
  readonly logLevel?: EjabberdLogLevel;
  /** Deadline for the first readiness. Default 30000 ms. */
  readonly startTimeoutMs?: number;
  /**
   * How its logs are rotated: `console.log` by the supervisor, `ejabberd.log` and `error.log` by
   * ejabberd itself. Default {@link DEFAULT_LOG_ROTATION}.
   */
  readonly logRotation?: LogRotation;
  /**
   * Runs this instance as a node of an ejabberd cluster (decision 0040) instead of a loopback-only
   * server. Without it nothing changes: one node on 127.0.0.1.
   */
  readonly cluster?: EjabberdClusterOptions;
  /** Run inside this network namespace (a node of infra/src/cluster/network.ts); so does {@link RunningEjabberd.ctl}. */
  readonly netns?: string;
}

/**
 * The distribution port of every cluster node. epmd-less distribution reaches another node at its
 * address on the port this node listens on itself, so the whole cluster shares one (decision
 * 0040; it must be open between the nodes only).
 */
export const EJABBERD_CLUSTER_DIST_PORT = 5210;

/**
 * Erlang's `net_ticktime` on a cluster node, in seconds: a peer that sends nothing for 6–10 s
 * (frozen, cut off) is taken for down. Until then every Mnesia transaction that writes a table
 * the peer holds (a room's, a state node's creation) waits for it, and its rooms answer no one:
 * Erlang's default, 60 s, held the cluster's writes 68 s after a node froze here (decision
 * 0040, "Faults tested"). Lower would take a loaded node's pause for its death, and Mnesia does
 * not merge the two sides that result.
 */
const EJABBERD_CLUSTER_NET_TICKTIME_S = 8;

/** How an instance takes part in a cluster (see {@link EjabberdOptions.cluster}). */
export interface EjabberdClusterOptions {
  /**
   * The node's routable IPv4 address: its Erlang node name is `ejabberd@<address>`, and the
   * distribution, WebSocket, c2s and admin API listeners bind to it (not to 127.0.0.1).
   */
  readonly address: string;
  /**
   * The Erlang cookie, the same on every node: whoever has it can run any code on every node.
   * Written to an owner-only file in `dir`, never put on a command line nor logged.
   */
  readonly cookie: string;
  /**
   * Who may call the admin API besides this host itself, as CIDRs: the API hosts, or the load
   * balancer in front of the nodes (it is the source the node sees).
   */
  readonly adminApiAllowFrom: readonly string[];
  /** Default {@link EJABBERD_CLUSTER_DIST_PORT}; whatever it is, every node must use the same. */
  readonly distPort?: number;
}

/** A running ejabberd instance started by {@link startEjabberd}. */
export interface RunningEjabberd {
  readonly domain: string;
  /** MUC service, `conference.<domain>`. */
  readonly mucService: string;
  /** Pubsub service, `pubsub.<domain>`. */
  readonly pubsubService: string;
  /** `ws://127.0.0.1:<wsPort>/ws`, or the cluster address instead (subprotocol `xmpp`). */
  readonly wsUrl: string;
  readonly wsPort: number;
  readonly c2sPort: number;
  /** `http://127.0.0.1:<adminApiPort>/api` (or the cluster address); POST `<adminApiUrl>/<command>` with a JSON body. */
  readonly adminApiUrl: string;
  /** Erlang node name, e.g. `frontdesk-1a2b3c4d5e@localhost`, or `ejabberd@<address>` in a cluster. */
  readonly nodeName: string;
  /** Runs `ejabberdctl <args>` against this node as the ejabberd user; resolves with its output. */
  ctl(args: readonly string[]): Promise<string>;
  readonly dir: string;
  /** ejabberd's own logs (`ejabberd.log`, `error.log`) and the console output (`console.log`). */
  readonly logDir: string;
  /** PID of the ejabberdctl shell script (the spawned process, leader of its process group). */
  readonly pid: number;
  /** PID of beam.smp, the Erlang VM. */
  readonly beamPid: number;
  /** Resolves when ejabberdctl has exited (it follows beam.smp), also when nobody asked it to. */
  readonly exited: Promise<ExitInfo>;
  /** Graceful stop (SIGTERM to beam.smp), SIGKILL after 10 s. Idempotent. */
  stop(): Promise<void>;
}

/**
 * The Erlang node name of the instance in `dir` (without `@localhost`): stable per folder,
 * because Mnesia in spool/ is bound to it, and distinct between folders, so tests and a dev
 * instance run side by side.
 */
export function ejabberdNodeName(dir: string): string {
  return `frontdesk-${createHash('sha256').update(resolve(dir)).digest('hex').slice(0, 10)}`;
}

/** The Erlang node name of a cluster node: its host part is the address other nodes dial. */
export function ejabberdClusterNodeName(address: string): string {
  return `ejabberd@${address}`;
}

/**
 * Whether a process is the Erlang VM, or the ejabberdctl script, of the instance in `dir`; a
 * cluster node's VM is recognised by its node name, from its `address`.
 */
export function isEjabberdOf(dir: string, proc: ProcessInfo, address?: string): boolean {
  const [flag, value] =
    proc.comm === 'beam.smp'
      ? address === undefined
        ? ['-sname', `${ejabberdNodeName(dir)}@localhost`]
        : ['-name', ejabberdClusterNodeName(address)]
      : ['--config-dir', resolve(dir)];
  const at = proc.args.indexOf(flag);
  return (
    (proc.comm === 'beam.smp' || proc.comm === 'ejabberdctl') &&
    at > 0 &&
    proc.args[at + 1] === value
  );
}

interface SystemUser {
  readonly uid: number;
  readonly gid: number;
  readonly home: string;
}

async function systemUser(name: string): Promise<SystemUser> {
  const passwd = await readFile('/etc/passwd', 'utf8');
  for (const line of passwd.split('\n')) {
    const fields = line.split(':');
    if (fields[0] === name && fields.length >= 7) {
      return { uid: Number(fields[2]), gid: Number(fields[3]), home: fields[5] as string };
    }
  }
  throw new Error(`system user ${name} not found: is the ejabberd package installed?`);
}

async function readPid(file: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt(await readFile(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

async function answers(url: string, init?: RequestInit): Promise<Response> {
  return fetch(url, { ...init, signal: AbortSignal.timeout(2000) });
}

/** A cluster node's HOME, where Erlang reads the cookie: a folder of its own in the node's. */
const clusterNodeHome = (dir: string) => join(dir, 'home');

/** How ejabberdctl reaches the node whose folder is `dir`: its files, cookie and distribution port. */
function ctlInvocation(dir: string, home: string, distPort: number) {
  const spoolDir = join(dir, 'spool');
  return {
    args: [
      '--config-dir',
      dir,
      '--ctl-config',
      join(dir, 'ejabberdctl.cfg'),
      '--config',
      join(dir, 'ejabberd.yml'),
      '--spool',
      spoolDir,
      '--logs',
      join(dir, 'logs'),
    ],
    cwd: spoolDir,
    env: {
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      HOME: home, // the Erlang cookie lives there
      USER: 'ejabberd',
      LOGNAME: 'ejabberd',
      LANG: 'C.UTF-8',
      // epmd-less distribution: no epmd process to leak.
      ERL_DIST_PORT: String(distPort),
      EJABBERD_PID_PATH: join(dir, 'ejabberd.pid'),
    },
  };
}

/** Runs `ejabberdctl <args>` as the ejabberd user, inside `netns` if given; resolves with its output. */
async function runCtl(
  invocation: ReturnType<typeof ctlInvocation>,
  user: SystemUser,
  netns: string | undefined,
  args: readonly string[],
): Promise<string> {
  const ctl = ['/usr/sbin/ejabberdctl', ...invocation.args, ...args];
  // As startProcess does it: nsenter switches to the ejabberd user once inside.
  const [command, commandArgs, ids] = netns
    ? [
        'nsenter',
        [`--net=${netns}`, `--setuid=${user.uid}`, `--setgid=${user.gid}`, '--', ...ctl],
        {},
      ]
    : [ctl[0] as string, ctl.slice(1), { uid: user.uid, gid: user.gid }];
  const { stdout } = await execFileAsync(command, commandArgs, {
    cwd: invocation.cwd,
    env: invocation.env,
    timeout: 60_000,
    ...ids,
  });
  return stdout;
}

/**
 * {@link RunningEjabberd.ctl} for a cluster node (default distribution port) by its folder and
 * namespace alone: for a supervisor that holds the folder but not the node's handle, such as the
 * simulated cluster's journeys asking which node holds a session (`connected_users_info`).
 */
export async function clusterNodeCtl(
  dir: string,
  netns: string,
  args: readonly string[],
): Promise<string> {
  const invocation = ctlInvocation(dir, clusterNodeHome(dir), EJABBERD_CLUSTER_DIST_PORT);
  return runCtl(invocation, await systemUser('ejabberd'), netns, args);
}

/**
 * Whether the admin API answers `status`. A cluster node's may refuse the caller (403): the
 * supervisor of a simulated cluster is no API host (decision 0041); mod_http_api answering at
 * all says ejabberd has started, since listeners start last.
 */
async function adminApiUp(adminApiUrl: string, refusalCounts: boolean): Promise<string | true> {
  const status = await answers(`${adminApiUrl}/status`, { method: 'POST', body: '{}' });
  return status.ok || (refusalCounts && status.status === 403)
    ? true
    : `admin API status answered ${status.status}`;
}

function checkCluster(cluster: EjabberdClusterOptions): void {
  if (!isIPv4(cluster.address)) throw new Error(`cluster address ${cluster.address} is not IPv4`);
  // Erlang takes at most 255 characters; shorter than 20 would be guessable.
  if (!/^[A-Za-z0-9]{20,255}$/.test(cluster.cookie)) {
    throw new Error('the cluster cookie must be 20 to 255 letters and digits');
  }
  for (const cidr of cluster.adminApiAllowFrom) {
    const [address, bits] = cidr.split('/');
    if (!address || !isIPv4(address) || !/^\d{1,2}$/.test(bits ?? '') || Number(bits) > 32) {
      throw new Error(`adminApiAllowFrom: ${cidr} is not an IPv4 CIDR`);
    }
  }
}

/**
 * Renders the ejabberd templates into `options.dir` and runs ejabberd there in
 * the foreground as the `ejabberd` system user (the caller must be root or that
 * user). Resolves once the WebSocket listener answers HTTP and the admin API
 * answers `status`; on failure the process is stopped and the error carries the
 * tail of ejabberd's logs.
 */
export async function startEjabberd(options: EjabberdOptions): Promise<RunningEjabberd> {
  const dir = resolve(options.dir);
  const domain = options.domain ?? 'frontdesk.localhost';
  if (options.jwtSecret.length < 32) throw new Error('jwtSecret must be at least 32 bytes');
  const { cluster } = options;
  if (cluster) checkCluster(cluster);
  const user = await systemUser('ejabberd');
  const myUid = process.getuid?.();
  if (myUid !== 0 && myUid !== user.uid) {
    throw new Error('startEjabberd must run as root or as the ejabberd user');
  }

  const spoolDir = join(dir, 'spool');
  const logDir = join(dir, 'logs');
  const pidFile = join(dir, 'ejabberd.pid');
  await mkdir(spoolDir, { recursive: true });
  await mkdir(logDir, { recursive: true });
  const stalePid = await readPid(pidFile);
  // After a SIGKILL the file may name a PID reused by an unrelated process: only a live VM of
  // this node counts.
  const running = stalePid === undefined ? undefined : processInfo(stalePid);
  if (running && isEjabberdOf(dir, running, cluster?.address)) {
    throw new Error(`ejabberd already runs in ${dir} (pid ${stalePid})`);
  }
  await rm(pidFile, { force: true });

  const [wsPort, c2sPort, adminApiPort, distPort] = await Promise.all([
    options.wsPort ?? freePort(),
    options.c2sPort ?? freePort(),
    options.adminApiPort ?? freePort(),
    cluster ? (cluster.distPort ?? EJABBERD_CLUSTER_DIST_PORT) : freePort(),
  ]);
  const host = cluster?.address ?? '127.0.0.1';
  const nodeName = cluster
    ? ejabberdClusterNodeName(cluster.address)
    : `${ejabberdNodeName(dir)}@localhost`;
  const stunHost = options.stunHost ?? '127.0.0.1';
  const stunPort = options.stunPort ?? 3478;
  const logRotation = options.logRotation ?? DEFAULT_LOG_ROTATION;
  const adminApiFrom = [
    ...new Set(['127.0.0.1/32', `${host}/32`, ...(cluster?.adminApiAllowFrom ?? [])]),
  ];
  const vars = {
    DIR: dir,
    DOMAIN: domain,
    HOST: host,
    WS_PORT: wsPort,
    C2S_PORT: c2sPort,
    ADMIN_API_PORT: adminApiPort,
    ADMIN_API_FROM: adminApiFrom.map((cidr) => `\n      - ip: "${cidr}"`).join(''),
    LOG_LEVEL: options.logLevel ?? 'warning',
    LOG_ROTATE_BYTES: logRotation.maxBytes,
    LOG_ROTATE_KEEP: logRotation.keep,
    STUN_HOST: stunHost,
    STUN_PORT: stunPort,
    NODE_NAME: nodeName,
    DIST_PORT: distPort,
    DIST_INTERFACE: `{${host.replaceAll('.', ',')}}`,
    // Erlang's default for a lone node, whose only peer is ejabberdctl.
    NET_TICKTIME: cluster ? EJABBERD_CLUSTER_NET_TICKTIME_S : 60,
  };
  await renderTemplateFile('ejabberd', 'ejabberd.yml', dir, vars, { raw: ['ADMIN_API_FROM'] });
  await renderTemplateFile('ejabberd', 'ejabberdctl.cfg', dir, vars);
  // ejabberdctl points ERL_INETRC at <config dir>/inetrc (docs/operations.md).
  await copyFile('/etc/ejabberd/inetrc', join(dir, 'inetrc'));
  const jwk = {
    kty: 'oct',
    alg: 'HS256',
    k: Buffer.from(options.jwtSecret).toString('base64url'),
  };
  await writeFile(join(dir, 'jwt.jwk'), JSON.stringify(jwk), { mode: 0o600 });
  // Erlang reads the cookie from $HOME/.erlang.cookie: a cluster node's HOME is a folder of its
  // own, so the cookie is on no command line; a lone node keeps the ejabberd user's.
  const home = cluster ? clusterNodeHome(dir) : user.home;
  if (cluster) {
    await mkdir(home, { recursive: true, mode: 0o700 });
    const cookieFile = join(home, '.erlang.cookie');
    await rm(cookieFile, { force: true });
    await writeFile(cookieFile, cluster.cookie, { mode: 0o400 });
  }
  await execFileAsync('chown', ['-R', `${user.uid}:${user.gid}`, dir]);
  const invocation = ctlInvocation(dir, home, distPort);
  const { args: ctlArgs, env } = invocation;

  const proc = await startProcess({
    name: `ejabberd (${nodeName})`,
    command: '/usr/sbin/ejabberdctl',
    args: [...ctlArgs, 'foreground-quiet'],
    ...(options.netns ? { netns: options.netns } : {}),
    logFile: join(logDir, 'console.log'),
    logRotation,
    cwd: spoolDir,
    // Run as the ejabberd user directly: a root-run ejabberdctl switches user
    // with `su` into a new session, and signals then miss beam.smp
    // (docs/operations.md, "Starting and stopping ejabberd from Node").
    uid: user.uid,
    gid: user.gid,
    env,
    // beam.smp, not the shell script: SIGTERM there is a graceful init:stop().
    stopPid: () => readPid(pidFile),
    stopTimeoutMs: 10_000,
  });

  const wsUrl = `ws://${host}:${wsPort}/ws`;
  const adminApiUrl = `http://${host}:${adminApiPort}/api`;
  let beamPid: number | undefined;
  try {
    await proc.waitUntilReady(
      async () => {
        await answers(`http://${host}:${wsPort}/ws`);
        const up = await adminApiUp(adminApiUrl, cluster !== undefined);
        if (up !== true) throw new Error(up);
        beamPid = await readPid(pidFile);
        if (beamPid === undefined) throw new Error(`no pid in ${pidFile}`);
        return true;
      },
      { timeoutMs: options.startTimeoutMs ?? 30_000, intervalMs: 100 },
    );
  } catch (error) {
    await proc.stop().catch(() => undefined);
    // foreground-quiet prints almost nothing: the cause is in ejabberd.log.
    const ejabberdLog = join(logDir, 'ejabberd.log');
    (error as Error).message +=
      `\n--- last lines of ${ejabberdLog} ---\n${await readLogTail(ejabberdLog, 20)}`;
    throw error;
  }

  return {
    domain,
    mucService: `conference.${domain}`,
    pubsubService: `pubsub.${domain}`,
    wsUrl,
    wsPort,
    c2sPort,
    adminApiUrl,
    nodeName,
    ctl: (args) => runCtl(invocation, user, options.netns, args),
    dir,
    logDir,
    pid: proc.pid,
    beamPid: beamPid as number,
    exited: proc.exited,
    stop: () => proc.stop(),
  };
}

/** The nodes `node` sees in its cluster (`ejabberdctl list_cluster`), itself included. */
export async function ejabberdClusterNodes(node: RunningEjabberd): Promise<string[]> {
  const listed = await node.ctl(['list_cluster']);
  return [...listed.matchAll(/'([^']+)'/g)].map((match) => match[1] as string);
}

/**
 * Joins `node` to the cluster of the running node named `seed` (`ejabberdctl join_cluster`):
 * ejabberd on `node` stops, replaces its Mnesia data with copies of the cluster's tables and
 * starts again. Resolves once `node` lists `seed` among its cluster's nodes and its admin API
 * answers again. A node already in that cluster joins again harmlessly.
 */
export async function joinEjabberdCluster(
  node: RunningEjabberd,
  seed: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  if (!(await ejabberdClusterNodes(node)).includes(seed)) {
    await node.ctl(['join_cluster', seed]);
  }
  for (let last: unknown; ;) {
    try {
      const up = await adminApiUp(node.adminApiUrl, true);
      const nodes = await ejabberdClusterNodes(node);
      if (up === true && nodes.includes(seed)) return;
      last = `${up === true ? 'admin API up' : up}, cluster ${nodes.join(', ')}`;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`${node.nodeName} did not join ${seed} in ${timeoutMs} ms: ${String(last)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
