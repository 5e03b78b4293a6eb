import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { freePort, startProcess, type ExitInfo, type ProcessInfo } from './process.ts';
import type { LogRotation } from './service-log.ts';
import { renderTemplateFile } from './template.ts';

/** Janus refuses to write recordings into these folders (`protected_folders`). */
export const JANUS_PROTECTED_FOLDERS: readonly string[] = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/lib32',
  '/lib64',
  '/proc',
  '/sbin',
  '/sys',
  '/usr',
  '/var',
];

const execFileAsync = promisify(execFile);

/**
 * The system user Janus runs as when we are root (Debian's package makes none). SECURITY: Janus
 * faces the network; as this user it can write only its recordings folder, and read its configs.
 */
export const JANUS_USER = 'frontdesk-janus';

type SystemUser = { uid: number; gid: number };

async function lookUpUser(name: string): Promise<SystemUser | undefined> {
  const passwd = await readFile('/etc/passwd', 'utf8');
  const fields = passwd
    .split('\n')
    .map((line) => line.split(':'))
    .find((entry) => entry[0] === name && entry.length >= 7);
  return fields ? { uid: Number(fields[2]), gid: Number(fields[3]) } : undefined;
}

/** The Janus user, created (system account, no login, no home) the first time. */
async function janusUser(): Promise<SystemUser> {
  const existing = await lookUpUser(JANUS_USER);
  if (existing) return existing;
  await execFileAsync('useradd', [
    '--system',
    '--user-group',
    '--no-create-home',
    '--home-dir',
    '/nonexistent',
    '--shell',
    '/usr/sbin/nologin',
    JANUS_USER,
  ]).catch((error: unknown) => {
    // Two starts at once: the other one made it.
    if (!String(error).includes('already exists')) throw error;
  });
  const made = await lookUpUser(JANUS_USER);
  if (!made) throw new Error(`could not create the system user ${JANUS_USER}`);
  return made;
}

/** Janus must be able to walk down to its folders: every folder above needs `o+x`. */
async function assertReachable(folder: string, user: SystemUser): Promise<void> {
  for (let above = dirname(folder); above !== dirname(above); above = dirname(above)) {
    const info = await stat(above);
    const enters =
      (info.mode & 0o001) !== 0 ||
      (info.uid === user.uid && (info.mode & 0o100) !== 0) ||
      (info.gid === user.gid && (info.mode & 0o010) !== 0);
    if (!enters) {
      throw new Error(
        `Janus runs as ${JANUS_USER} and cannot enter ${above}: allow it (chmod o+x ${above}) or ` +
          'put the data folder elsewhere',
      );
    }
  }
}

/** What stays enabled; every other installed module is listed in a `disable` entry. */
const KEEP = {
  plugins: ['libjanus_videoroom.so'],
  transports: ['libjanus_http.so', 'libjanus_websockets.so'],
  loggers: [] as string[],
  events: [] as string[],
} as const;

/** Options for {@link startJanus}. */
export interface JanusOptions {
  /** Instance folder (created if missing): rendered configs and `janus.log`. */
  readonly dir: string;
  /**
   * The address both transports listen on. Default `127.0.0.1`; a node's own address in the
   * simulated cluster, where the API reaches Janus across the network.
   */
  readonly host?: string;
  /** Run inside this network namespace (a node of infra/src/cluster/network.ts). */
  readonly netns?: string;
  /** REST transport port (path `/janus`, on `host`). Default: a free port. */
  readonly httpPort?: number;
  /** WebSocket transport port (on `host`). Default: a free port. */
  readonly wsPort?: number;
  /** UDP ports for media, inclusive (one per PeerConnection). Default `[20000, 20200]`. */
  readonly rtpPortRange?: readonly [number, number];
  /** `token_auth_secret`: our API mints browser tokens with it ({@link mintJanusToken}). */
  readonly tokenSecret: string;
  /** Videoroom `admin_key`: needed to create rooms; never sent to browsers. */
  readonly adminKey: string;
  /** `admin_secret` (the Admin API itself stays off). */
  readonly adminSecret: string;
  /**
   * Folder for `.mjr` recordings (created if missing). Janus has no global
   * setting for it: pass it as `rec_dir` when creating a room. Must not be
   * below {@link JANUS_PROTECTED_FOLDERS}.
   */
  readonly recordingsDir: string;
  /** `ice_enforce_list`: interfaces/addresses for ICE candidates, e.g. `veth0` in tests. */
  readonly iceEnforceList?: string;
  /** `nat_1_1_mapping`: public IP(s) of a 1:1 NAT, comma-separated. */
  readonly natPublicIp?: string;
  /** 0–7, default 4 (info). */
  readonly debugLevel?: number;
  /** Deadline for readiness. Default 10000 ms. */
  readonly startTimeoutMs?: number;
  /** How `janus.log` is rotated. */
  readonly logRotation?: LogRotation;
  /** Folder with `plugins/`, `transports/`, `events/`, `loggers/`. Default: Debian's. */
  readonly libDir?: string;
}

/** A running Janus instance started by {@link startJanus}. */
export interface RunningJanus {
  /** `http://<host>:<httpPort>/janus` */
  readonly httpUrl: string;
  /** `ws://<host>:<wsPort>` (subprotocol `janus-protocol`). */
  readonly wsUrl: string;
  readonly httpPort: number;
  readonly wsPort: number;
  readonly recordingsDir: string;
  readonly dir: string;
  readonly logFile: string;
  readonly pid: number;
  /** Resolves when Janus has exited, also when nobody asked it to. */
  readonly exited: Promise<ExitInfo>;
  /** Graceful stop (SIGTERM), SIGKILL after 5 s. Idempotent. */
  stop(): Promise<void>;
}

/** Whether a process is the Janus of the instance folder `dir`. */
export function isJanusOf(dir: string, proc: ProcessInfo): boolean {
  const flag = proc.args.indexOf('-F');
  return proc.comm === 'janus' && flag > 0 && proc.args[flag + 1] === resolve(dir);
}

function defaultLibDir(): string {
  const triplet = process.arch === 'arm64' ? 'aarch64-linux-gnu' : 'x86_64-linux-gnu';
  return `/usr/lib/${triplet}/janus`;
}

async function disabledModules(folder: string, keep: readonly string[]): Promise<string> {
  let files: string[];
  try {
    files = await readdir(folder);
  } catch {
    return '';
  }
  // Janus loads only names ending in .so (not the .so.1 version links).
  return files
    .filter((file) => file.endsWith('.so') && !keep.includes(file))
    .sort()
    .join(',');
}

function isBelow(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder + sep);
}

/**
 * Renders the Janus configs into `options.dir` and runs `janus` in the
 * foreground (log on stdout into `<dir>/janus.log`). Resolves once
 * `GET <httpUrl>/info` answers; on failure the process is stopped and the error
 * carries the tail of the log.
 */
export async function startJanus(options: JanusOptions): Promise<RunningJanus> {
  const dir = resolve(options.dir);
  const recordingsDir = resolve(options.recordingsDir);
  const libDir = options.libDir ?? defaultLibDir();
  const [rtpMin, rtpMax] = options.rtpPortRange ?? [20000, 20200];
  if (!(Number.isInteger(rtpMin) && Number.isInteger(rtpMax) && rtpMin > 0 && rtpMin <= rtpMax)) {
    throw new Error(`invalid rtpPortRange ${rtpMin}-${rtpMax}`);
  }
  const debugLevel = options.debugLevel ?? 4;
  if (!Number.isInteger(debugLevel) || debugLevel < 0 || debugLevel > 7) {
    throw new Error('debugLevel must be an integer from 0 to 7');
  }
  const protectedBy = JANUS_PROTECTED_FOLDERS.find((folder) => isBelow(recordingsDir, folder));
  if (protectedBy) {
    throw new Error(
      `recordingsDir ${recordingsDir} is below ${protectedBy}, where Janus may not write`,
    );
  }
  if (!existsSync(join(libDir, 'plugins', 'libjanus_videoroom.so'))) {
    throw new Error(
      `no Janus videoroom plugin in ${libDir}/plugins: is the janus package installed?`,
    );
  }
  await mkdir(dir, { recursive: true });
  await mkdir(recordingsDir, { recursive: true });

  const [httpPort, wsPort] = await Promise.all([
    options.httpPort ?? freePort(),
    options.wsPort ?? freePort(),
  ]);
  const host = options.host ?? '127.0.0.1';
  const vars = {
    DIR: dir,
    HOST: host,
    LIB_DIR: libDir,
    DEBUG_LEVEL: debugLevel,
    // One media loop a core rather than a thread a handle: fewer threads to wake for every
    // packet, and handles (4 a call) start without spawning one each.
    EVENT_LOOPS: availableParallelism(),
    TOKEN_SECRET: options.tokenSecret,
    ADMIN_SECRET: options.adminSecret,
    ADMIN_KEY: options.adminKey,
    PROTECTED_FOLDERS: JANUS_PROTECTED_FOLDERS.map((folder) => `"${folder}"`).join(', '),
    RTP_PORT_RANGE: `${rtpMin}-${rtpMax}`,
    ICE_ENFORCE_LIST: options.iceEnforceList,
    NAT_PUBLIC_IP: options.natPublicIp,
    DISABLED_PLUGINS: await disabledModules(join(libDir, 'plugins'), KEEP.plugins),
    DISABLED_TRANSPORTS: await disabledModules(join(libDir, 'transports'), KEEP.transports),
    DISABLED_LOGGERS: await disabledModules(join(libDir, 'loggers'), KEEP.loggers),
    DISABLED_EVENT_HANDLERS: await disabledModules(join(libDir, 'events'), KEEP.events),
    HTTP_PORT: httpPort,
    WS_PORT: wsPort,
  };
  for (const file of [
    'janus.jcfg',
    'janus.plugin.videoroom.jcfg',
    'janus.transport.http.jcfg',
    'janus.transport.websockets.jcfg',
  ]) {
    await renderTemplateFile('janus', file, dir, vars, { raw: ['PROTECTED_FOLDERS'] });
  }

  // SECURITY: never root. As root we hand Janus to its own user: it reads its configs (they hold
  // the token secret and admin key: group-readable, not world) and writes only its recordings,
  // which the API (root) reads to merge them.
  const user = process.getuid?.() === 0 ? await janusUser() : undefined;
  if (user) {
    await assertReachable(dir, user);
    await assertReachable(recordingsDir, user);
    await chown(dir, 0, user.gid);
    await chmod(dir, 0o750);
    for (const file of await readdir(dir)) {
      if (!file.endsWith('.jcfg')) continue;
      await chown(join(dir, file), 0, user.gid);
      await chmod(join(dir, file), 0o640);
    }
    await chown(recordingsDir, user.uid, user.gid);
    await chmod(recordingsDir, 0o750);
  }

  const logFile = join(dir, 'janus.log');
  const proc = await startProcess({
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
    name: 'janus',
    command: 'janus',
    ...(options.netns ? { netns: options.netns } : {}),
    // -F: our config folder (janus.jcfg is read from it); -o: no colour codes
    // in the log file. Janus stays in the foreground and logs to stdout unless
    // told otherwise.
    args: ['-F', dir, '-o'],
    logFile,
    ...(options.logRotation ? { logRotation: options.logRotation } : {}),
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C.UTF-8' },
  });

  const httpUrl = `http://${host}:${httpPort}/janus`;
  try {
    await proc.waitUntilReady(
      // A bare probe, not the Janus client of @frontdesk/media/server: /info needs no session or
      // token, and the supervisor stays free of the packages whose tests it starts servers for.
      async () => {
        const response = await fetch(`${httpUrl}/info`, { signal: AbortSignal.timeout(2000) });
        const body = (await response.json()) as { janus?: unknown };
        return body.janus === 'server_info';
      },
      { timeoutMs: options.startTimeoutMs ?? 10_000, intervalMs: 25 },
    );
  } catch (error) {
    await proc.stop().catch(() => undefined);
    throw error;
  }

  return {
    httpUrl,
    wsUrl: `ws://${host}:${wsPort}`,
    httpPort,
    wsPort,
    recordingsDir,
    dir,
    logFile,
    pid: proc.pid,
    exited: proc.exited,
    stop: () => proc.stop(),
  };
}
