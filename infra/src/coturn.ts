import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { isIP, createConnection, createServer } from 'node:net';
import { chmod, chown, mkdir, readFile, readdir } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { join, resolve } from 'node:path';
import { copyCertificate, type CertificateFiles } from './certificate-files.ts';
import { freePort, signal, startProcess, type ExitInfo, type ProcessInfo } from './process.ts';
import type { LogRotation } from './service-log.ts';
import { renderTemplateFile } from './template.ts';

/** Debian's coturn package makes this system user; coturn never runs as root here. */
export const COTURN_USER = 'turnserver';

/** The port TURN clients expect (RFC 5766), for UDP and TCP alike. */
export const DEFAULT_TURN_PORT = 3478;
/** TURN over TLS (RFC 5766 §2.1). */
export const DEFAULT_TURNS_PORT = 5349;
/** UDP ports relayed media leaves and arrives on; within coturn's RFC 5766 default range. */
export const DEFAULT_RELAY_PORTS: readonly [number, number] = [49152, 49651];

/**
 * SECURITY: where relayed traffic may not go (coturn `denied-peer-ip`): private, shared,
 * link-local, documentation and reserved ranges, and IPv6 forms that map onto IPv4
 * (CVE-2020-26262). Loopback is refused by coturn itself unless `allow-loopback-peers`.
 */
export const DENIED_PEER_RANGES: readonly string[] = [
  '0.0.0.0-0.255.255.255',
  '10.0.0.0-10.255.255.255',
  '100.64.0.0-100.127.255.255',
  '127.0.0.0-127.255.255.255',
  '169.254.0.0-169.254.255.255',
  '172.16.0.0-172.31.255.255',
  '192.0.0.0-192.0.0.255',
  '192.0.2.0-192.0.2.255',
  '192.88.99.0-192.88.99.255',
  '192.168.0.0-192.168.255.255',
  '198.18.0.0-198.19.255.255',
  '198.51.100.0-198.51.100.255',
  '203.0.113.0-203.0.113.255',
  '240.0.0.0-255.255.255.255',
  '::1',
  '::ffff:0.0.0.0-::ffff:255.255.255.255',
  '64:ff9b::-64:ff9b::ffff:ffff',
  '2001:db8::-2001:db8:ffff:ffff:ffff:ffff:ffff:ffff',
  'fc00::-fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
  'fe80::-febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
];

/** A certificate for TURN over TLS: PEM files, copied for coturn at each start and renewal. */
export type TurnTls = CertificateFiles;

/** coturn's CLI on 127.0.0.1: where the API counts allocations for `/metrics`. */
export type TurnCliOptions = { readonly port: number; readonly password: string };

/** Options for {@link startCoturn}. */
export interface CoturnOptions {
  /** Instance folder (created if missing): `turnserver.conf`, the pid file, coturn's SQLite file. */
  readonly dir: string;
  /** coturn's output is appended here (the data folder's `logs/coturn.log`). */
  readonly logFile: string;
  readonly logRotation?: LogRotation;
  /** `static-auth-secret`, shared with the API, which mints the credentials (decision 0015). */
  readonly secret: string;
  /** `realm`: the XMPP domain will do; browsers never show it. */
  readonly realm: string;
  /** STUN/TURN port for UDP and TCP. Default {@link DEFAULT_TURN_PORT}, or a free one if taken. */
  readonly port?: number;
  /** With a certificate: TURN over TLS on `tlsPort` (default 5349, or a free one if taken). */
  readonly tls?: TurnTls;
  readonly tlsPort?: number;
  /** UDP relay ports, inclusive. Default {@link DEFAULT_RELAY_PORTS}. */
  readonly relayPorts?: readonly [number, number];
  /**
   * Addresses relayed traffic may reach although {@link DENIED_PEER_RANGES} holds them: where
   * Janus is reached ({@link janusAddresses}). Everything else private stays refused.
   */
  readonly allowedPeers: readonly string[];
  /** `external-ip`: the public address of a 1:1 NAT in front of this host. */
  readonly externalIp?: string;
  /** The CLI on 127.0.0.1 with a password (at least 16 characters); without it, `no-cli`. */
  readonly cli?: TurnCliOptions;
  /** Deadline for readiness. Default 10000 ms. */
  readonly startTimeoutMs?: number;
}

/** A running coturn started by {@link startCoturn}. */
export interface RunningCoturn {
  readonly dir: string;
  readonly logFile: string;
  /** UDP and TCP. */
  readonly port: number;
  /** TLS, when a certificate was given. */
  readonly tlsPort: number | undefined;
  /** The CLI's port on 127.0.0.1, when it was asked for. */
  readonly cliPort: number | undefined;
  readonly relayPorts: readonly [number, number];
  readonly pid: number;
  /** Resolves when coturn has exited, also when nobody asked it to. */
  readonly exited: Promise<ExitInfo>;
  /**
   * Takes the certificate files again (a renewal) without a restart: new copies, then SIGUSR2,
   * on which coturn loads them for new TLS connections and keeps the sessions it has.
   */
  reloadCertificate(): Promise<void>;
  /** SIGTERM, SIGKILL after 5 s. Idempotent. */
  stop(): Promise<void>;
}

/** Whether a process is the coturn of the instance folder `dir`. */
export function isCoturnOf(dir: string, proc: ProcessInfo): boolean {
  const flag = proc.args.indexOf('-c');
  return (
    proc.comm === 'turnserver' &&
    flag > 0 &&
    proc.args[flag + 1] === join(resolve(dir), 'turnserver.conf')
  );
}

/**
 * The IPv4 addresses Janus announces ICE candidates on, which coturn must relay to: the
 * `nat_1_1_mapping` addresses when given (Janus then announces those), else the addresses of
 * the interfaces `ice_enforce_list` names (an interface name, or an address, or a prefix of
 * either, as Janus matches them), else every non-loopback address of the machine.
 */
export function janusAddresses(iceEnforceList?: string, publicIp?: string): string[] {
  const mapped = (publicIp ?? '')
    .split(',')
    .map((ip) => ip.trim())
    .filter((ip) => isIP(ip) !== 0);
  if (mapped.length > 0) return [...new Set(mapped)];
  const enforced = (iceEnforceList ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const found = Object.entries(networkInterfaces()).flatMap(([name, addresses]) =>
    (addresses ?? [])
      .filter((a) => a.family === 'IPv4' && !a.internal)
      .filter(
        (a) =>
          enforced.length === 0 ||
          enforced.some((entry) => name.startsWith(entry) || a.address.startsWith(entry)),
      )
      .map((a) => a.address),
  );
  return [...new Set(found)];
}

/** The TURN URLs of a coturn as browsers reach it at `host`: UDP, TCP and, with TLS, TLS. */
export function turnUrls(host: string, coturn: Pick<RunningCoturn, 'port' | 'tlsPort'>): string[] {
  const at = isIP(host) === 6 ? `[${host}]` : host;
  return [
    `turn:${at}:${coturn.port}?transport=udp`,
    `turn:${at}:${coturn.port}?transport=tcp`,
    ...(coturn.tlsPort === undefined ? [] : [`turns:${at}:${coturn.tlsPort}?transport=tcp`]),
  ];
}

/** Whether nothing listens on `port` on any address, for TCP and, if asked, UDP. */
async function portIsFree(port: number, udp: boolean): Promise<boolean> {
  const tcp = await new Promise<boolean>((done) => {
    const server = createServer();
    server.unref();
    server.once('error', () => done(false));
    server.listen({ port, host: '0.0.0.0', exclusive: true }, () => server.close(() => done(true)));
  });
  if (!tcp || !udp) return tcp;
  return new Promise<boolean>((done) => {
    const socket = createSocket('udp4');
    socket.unref();
    socket.once('error', () => done(false));
    socket.bind({ port, address: '0.0.0.0', exclusive: true }, () =>
      socket.close(() => done(true)),
    );
  });
}

/**
 * `preferred` when nothing uses it on any address (TCP and, if `udp`, UDP as well), else a port
 * free for both: browsers are told the port, so a second stack on this machine moves aside
 * rather than failing (`npm start` prints the port to open).
 */
export async function choosePort(preferred: number, udp: boolean): Promise<number> {
  if (await portIsFree(preferred, udp)) return preferred;
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await freePort();
    if (await portIsFree(port, udp)) return port;
  }
  throw new Error(`no free port for coturn (${preferred} is taken)`);
}

/** Magic cookie of STUN (RFC 5389 §6). */
const STUN_COOKIE = 0x2112a442;

/**
 * Sends a STUN Binding request over UDP and resolves with whether a Binding success response to
 * it came back: coturn answers only once its listeners are up.
 */
export function stunAnswers(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((done) => {
    const socket = createSocket(isIP(host) === 6 ? 'udp6' : 'udp4');
    const transaction = randomBytes(12);
    const request = Buffer.alloc(20);
    request.writeUInt16BE(0x0001, 0); // Binding request, no attributes
    request.writeUInt32BE(STUN_COOKIE, 4);
    transaction.copy(request, 8);
    const finish = (answered: boolean) => {
      clearTimeout(timer);
      socket.close();
      done(answered);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('error', () => finish(false));
    socket.on('message', (message) => {
      if (message.length >= 20 && message.readUInt16BE(0) === 0x0101) {
        if (message.subarray(8, 20).equals(transaction)) finish(true);
      }
    });
    socket.send(request, port, host);
  });
}

function tcpAnswers(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ host, port, timeout: 1000 });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      done(false);
    });
    socket.once('error', () => done(false));
  });
}

type SystemUser = { uid: number; gid: number };

async function lookUpUser(name: string): Promise<SystemUser> {
  const passwd = await readFile('/etc/passwd', 'utf8');
  const fields = passwd
    .split('\n')
    .map((line) => line.split(':'))
    .find((entry) => entry[0] === name && entry.length >= 7);
  if (!fields) throw new Error(`system user ${name} not found: is the coturn package installed?`);
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

function checkRange([min, max]: readonly [number, number]): void {
  if (!(Number.isInteger(min) && Number.isInteger(max) && min >= 1024 && min <= max && max < 65536))
    throw new Error(`invalid relay port range ${min}-${max}`);
}

/**
 * Renders `turnserver.conf` into `options.dir` and runs Debian's coturn (`turnserver`) in the
 * foreground, as the `turnserver` user when we are root, logging to `options.logFile`. Resolves
 * once it answers a STUN Binding request over UDP and accepts TCP connections (and TLS and CLI
 * ones, when asked for); on failure the process is stopped and the error carries the tail of its
 * log.
 */
export async function startCoturn(options: CoturnOptions): Promise<RunningCoturn> {
  const dir = resolve(options.dir);
  const relayPorts = options.relayPorts ?? DEFAULT_RELAY_PORTS;
  checkRange(relayPorts);
  for (const peer of options.allowedPeers) {
    if (isIP(peer) === 0) throw new Error(`allowed peer ${peer} is not an IP address`);
  }
  if (options.cli && options.cli.password.length < 16) {
    throw new Error("coturn's CLI password must have at least 16 characters");
  }
  // As root, coturn runs as Debian's turnserver user; anybody else runs it as themselves.
  const user = process.getuid?.() === 0 ? await lookUpUser(COTURN_USER) : undefined;
  await mkdir(dir, { recursive: true });

  const [port, tlsPort] = await Promise.all([
    options.port ?? choosePort(DEFAULT_TURN_PORT, true),
    options.tls ? (options.tlsPort ?? choosePort(DEFAULT_TURNS_PORT, false)) : undefined,
  ]);
  // Copies coturn's user can read, whoever owns the originals.
  const copies = options.tls
    ? { certFile: join(dir, 'turn.crt'), keyFile: join(dir, 'turn.key') }
    : undefined;
  if (options.tls && copies) await copyCertificate(options.tls, copies);
  await renderTemplateFile(
    'coturn',
    'turnserver.conf',
    dir,
    {
      DIR: dir,
      PORT: port,
      TLS_PORT: tlsPort,
      CERT_FILE: copies?.certFile,
      KEY_FILE: copies?.keyFile,
      NO_TLS: options.tls ? undefined : 'yes',
      CLI_PORT: options.cli?.port,
      CLI_PASSWORD: options.cli?.password,
      NO_CLI: options.cli ? undefined : 'yes',
      EXTERNAL_IP: options.externalIp,
      MIN_PORT: relayPorts[0],
      MAX_PORT: relayPorts[1],
      SECRET: options.secret,
      REALM: options.realm,
      DENIED_PEERS: DENIED_PEER_RANGES.map((range) => `denied-peer-ip=${range}`).join('\n'),
      ALLOWED_PEERS: options.allowedPeers.map((ip) => `allowed-peer-ip=${ip}`).join('\n'),
    },
    { raw: ['DENIED_PEERS', 'ALLOWED_PEERS'] },
  );
  // SECURITY: the config holds the shared secret and the folder the TLS key: coturn's user's
  // alone (it writes its pid and SQLite files beside them).
  await chmod(dir, 0o700);
  for (const file of await readdir(dir)) await chmod(join(dir, file), 0o600);
  if (user) {
    await chown(dir, user.uid, user.gid);
    for (const file of await readdir(dir)) await chown(join(dir, file), user.uid, user.gid);
  }

  const proc = await startProcess({
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
    name: 'coturn',
    command: 'turnserver',
    // -c: our config only (not /etc/turnserver.conf); it stays in the foreground.
    args: ['-c', join(dir, 'turnserver.conf')],
    logFile: options.logFile,
    ...(options.logRotation ? { logRotation: options.logRotation } : {}),
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C.UTF-8' },
  });
  try {
    await proc.waitUntilReady(
      async () =>
        (await stunAnswers('127.0.0.1', port)) &&
        (await tcpAnswers('127.0.0.1', port)) &&
        (tlsPort === undefined || (await tcpAnswers('127.0.0.1', tlsPort))) &&
        (options.cli === undefined || (await tcpAnswers('127.0.0.1', options.cli.port))),
      { timeoutMs: options.startTimeoutMs ?? 10_000, intervalMs: 50 },
    );
  } catch (error) {
    await proc.stop().catch(() => undefined);
    throw error;
  }
  return {
    dir,
    logFile: options.logFile,
    port,
    tlsPort,
    cliPort: options.cli?.port,
    relayPorts,
    pid: proc.pid,
    exited: proc.exited,
    async reloadCertificate() {
      if (!options.tls || !copies) return;
      await copyCertificate(options.tls, copies, user);
      signal(proc.pid, 'SIGUSR2');
    },
    stop: () => proc.stop(),
  };
}
