import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
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
}

/** A running ejabberd instance started by {@link startEjabberd}. */
export interface RunningEjabberd {
  readonly domain: string;
  /** MUC service, `conference.<domain>`. */
  readonly mucService: string;
  /** Pubsub service, `pubsub.<domain>`. */
  readonly pubsubService: string;
  /** `ws://127.0.0.1:<wsPort>/ws` (subprotocol `xmpp`). */
  readonly wsUrl: string;
  readonly wsPort: number;
  readonly c2sPort: number;
  /** `http://127.0.0.1:<adminApiPort>/api`; POST `<adminApiUrl>/<command>` with a JSON body. */
  readonly adminApiUrl: string;
  /** Erlang node name, e.g. `frontdesk-1a2b3c4d5e@localhost`. */
  readonly nodeName: string;
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

/** Whether a process is the Erlang VM, or the ejabberdctl script, of the instance in `dir`. */
export function isEjabberdOf(dir: string, proc: ProcessInfo): boolean {
  const [flag, value] =
    proc.comm === 'beam.smp'
      ? ['-sname', `${ejabberdNodeName(dir)}@localhost`]
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
  if (running && isEjabberdOf(dir, running)) {
    throw new Error(`ejabberd already runs in ${dir} (pid ${stalePid})`);
  }
  await rm(pidFile, { force: true });

  const [wsPort, c2sPort, adminApiPort, distPort] = await Promise.all([
    options.wsPort ?? freePort(),
    options.c2sPort ?? freePort(),
    options.adminApiPort ?? freePort(),
    freePort(),
  ]);
  const nodeName = ejabberdNodeName(dir);
  const stunHost = options.stunHost ?? '127.0.0.1';
  const stunPort = options.stunPort ?? 3478;
  const logRotation = options.logRotation ?? DEFAULT_LOG_ROTATION;
  const vars = {
    DIR: dir,
    DOMAIN: domain,
    WS_PORT: wsPort,
    C2S_PORT: c2sPort,
    ADMIN_API_PORT: adminApiPort,
    LOG_LEVEL: options.logLevel ?? 'warning',
    LOG_ROTATE_BYTES: logRotation.maxBytes,
    LOG_ROTATE_KEEP: logRotation.keep,
    STUN_HOST: stunHost,
    STUN_PORT: stunPort,
    NODE_NAME: nodeName,
    DIST_PORT: distPort,
  };
  await renderTemplateFile('ejabberd', 'ejabberd.yml', dir, vars);
  await renderTemplateFile('ejabberd', 'ejabberdctl.cfg', dir, vars);
  // ejabberdctl points ERL_INETRC at <config dir>/inetrc (docs/operations.md).
  await copyFile('/etc/ejabberd/inetrc', join(dir, 'inetrc'));
  const jwk = {
    kty: 'oct',
    alg: 'HS256',
    k: Buffer.from(options.jwtSecret).toString('base64url'),
  };
  await writeFile(join(dir, 'jwt.jwk'), JSON.stringify(jwk), { mode: 0o600 });
  await execFileAsync('chown', ['-R', `${user.uid}:${user.gid}`, dir]);

  const proc = await startProcess({
    name: `ejabberd (${nodeName})`,
    command: '/usr/sbin/ejabberdctl',
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
      logDir,
      'foreground-quiet',
    ],
    logFile: join(logDir, 'console.log'),
    logRotation,
    cwd: spoolDir,
    // Run as the ejabberd user directly: a root-run ejabberdctl switches user
    // with `su` into a new session, and signals then miss beam.smp
    // (docs/operations.md, "Starting and stopping ejabberd from Node").
    uid: user.uid,
    gid: user.gid,
    env: {
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      HOME: user.home, // the Erlang cookie lives there
      USER: 'ejabberd',
      LOGNAME: 'ejabberd',
      LANG: 'C.UTF-8',
      // epmd-less distribution: no epmd process to leak.
      ERL_DIST_PORT: String(distPort),
      EJABBERD_PID_PATH: pidFile,
    },
    // beam.smp, not the shell script: SIGTERM there is a graceful init:stop().
    stopPid: () => readPid(pidFile),
    stopTimeoutMs: 10_000,
  });

  const wsUrl = `ws://127.0.0.1:${wsPort}/ws`;
  const adminApiUrl = `http://127.0.0.1:${adminApiPort}/api`;
  let beamPid: number | undefined;
  try {
    await proc.waitUntilReady(
      async () => {
        await answers(`http://127.0.0.1:${wsPort}/ws`);
        const status = await answers(`${adminApiUrl}/status`, { method: 'POST', body: '{}' });
        if (!status.ok) throw new Error(`admin API status answered ${status.status}`);
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
    nodeName: `${nodeName}@localhost`,
    dir,
    logDir,
    pid: proc.pid,
    beamPid: beamPid as number,
    exited: proc.exited,
    stop: () => proc.stop(),
  };
}
