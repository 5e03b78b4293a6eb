import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_LOG_ROTATION, writeServiceLog, type LogRotation } from './service-log.ts';

/** How a supervised process ended. */
export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Options for {@link startProcess}. */
export interface StartProcessOptions {
  /** Service name used in error messages, e.g. `ejabberd`. */
  readonly name: string;
  readonly command: string;
  readonly args?: readonly string[];
  /** stdout and stderr are appended to this file, rotated by `logRotation`. */
  readonly logFile: string;
  /** Default {@link DEFAULT_LOG_ROTATION}. */
  readonly logRotation?: LogRotation;
  readonly cwd?: string;
  /** Full environment of the child (not merged with `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * The user the service runs as: its uid and its own gid, both or neither (a root parent that
   * set the uid alone would leave it root's gid and groups); it keeps no supplementary groups.
   */
  readonly uid?: number;
  readonly gid?: number;
  /**
   * A network namespace's file (`/proc/<pid>/ns/net`) to run the command in: a node of the
   * simulated cluster (infra/src/cluster/network.ts). `nsenter` execs the command, so the PID is
   * still the service's; it changes to `uid`/`gid` itself, after entering ({@link nsenterUser}).
   */
  readonly netns?: string;
  /**
   * The PID that `stop()` sends SIGTERM to, when it is not the spawned process
   * itself (e.g. beam.smp under the ejabberdctl shell script). Returning
   * `undefined` (not known yet) falls back to SIGTERM for the whole process group.
   */
  readonly stopPid?: () => number | undefined | Promise<number | undefined>;
  /** Time allowed for a graceful exit after SIGTERM before SIGKILL. Default 5000 ms. */
  readonly stopTimeoutMs?: number;
}

type RunAs = { uid: number; gid: number };

/** The options' user, refused when it is half of one: a uid alone keeps root's gid. */
function runAsOf(options: StartProcessOptions): RunAs | undefined {
  const { uid, gid } = options;
  if (uid === undefined && gid === undefined) return undefined;
  if (uid === undefined || gid === undefined) {
    throw new Error(`${options.name}: run it as a uid and its gid, both (uid ${uid}, gid ${gid})`);
  }
  return { uid, gid };
}

/**
 * nsenter's arguments that make the command run as `user`: `--setgid` also drops the
 * supplementary groups (nsenter(1)); `--setuid` alone would keep root's gid and groups. Outside
 * a namespace Node's spawn does the same (libuv clears the groups when it sets the ids).
 */
const nsenterUser = (user: RunAs | undefined): string[] =>
  user ? [`--setuid=${user.uid}`, `--setgid=${user.gid}`] : [];

/** Options for {@link SupervisedProcess.waitUntilReady}. */
export interface WaitOptions {
  /** Default 20000 ms. */
  readonly timeoutMs?: number;
  /** Default 50 ms between checks. */
  readonly intervalMs?: number;
}

/** A child process started by {@link startProcess}. */
export interface SupervisedProcess {
  readonly name: string;
  /** PID of the spawned process; also its process group id. */
  readonly pid: number;
  readonly logFile: string;
  /** Resolves when the spawned process has exited (never rejects). */
  readonly exited: Promise<ExitInfo>;
  /** The exit, once it happened. */
  readonly exitInfo: ExitInfo | undefined;
  /**
   * Polls `check` until it returns true. Rejects with the service name and the
   * tail of its log when the process exits first or the deadline passes; a
   * throwing check counts as "not ready yet" and its message is reported.
   */
  waitUntilReady(check: () => Promise<boolean>, options?: WaitOptions): Promise<void>;
  /**
   * SIGTERM to the right PID, wait for the exit, SIGKILL to the whole process
   * group after `stopTimeoutMs`. Idempotent: every call returns the same promise.
   */
  stop(): Promise<void>;
  /** The last `lines` lines of the log file. */
  logTail(lines?: number): Promise<string>;
}

/** Supervised processes not yet stopped, killed as a last resort when Node exits. */
const live = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Children are detached (own process group, see startProcess), so nothing
  // else would end them if the caller forgets stop() or Node exits on an
  // uncaught error. Only synchronous work is possible here.
  process.on('exit', () => {
    for (const pgid of live) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

/**
 * Whether a process with this PID exists and is not a zombie. A zombie counts
 * as gone: when the reaper is not our child's parent (e.g. an orphaned beam.smp
 * under a container's PID 1 that never reaps), it can stay a zombie forever.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  const state = procStat(pid)?.state;
  return state !== undefined && state !== 'Z' && state !== 'X';
}

/** What /proc/<pid>/stat says of a process. */
export interface ProcStat {
  /** R, S, D, Z (zombie), X (dead), … */
  readonly state: string;
  readonly pgrp: number;
  /** Clock ticks after boot: with the PID, names one process even after its PID is reused. */
  readonly startTime: number;
}

/** State, process group and start time of a PID, from /proc, or undefined if it is gone. */
export function procStat(pid: number | string): ProcStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may hold spaces; after it come state, ppid, pgrp, and
    // starttime as the 20th field.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', pgrp: Number(fields[2]), startTime: Number(fields[19]) };
  } catch {
    return undefined;
  }
}

/** A live process as /proc shows it. */
export interface ProcessInfo {
  readonly pid: number;
  readonly pgrp: number;
  /** The kernel's short name (`postgres`, `janus`, `beam.smp`, `node`). */
  readonly comm: string;
  readonly args: readonly string[];
}

/** A live (non-zombie) process, or undefined when there is none with this PID. */
export function processInfo(pid: number): ProcessInfo | undefined {
  const stat = procStat(pid);
  if (!stat || stat.state === 'Z' || stat.state === 'X') return undefined;
  try {
    const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
    return { pid, pgrp: stat.pgrp, comm, args };
  } catch {
    return undefined; // ended while we looked
  }
}

/** Every live (non-zombie) process but the caller. */
export function listProcesses(): ProcessInfo[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .flatMap((entry) => processInfo(Number(entry)) ?? []);
}

/** One variable of a process's environment as it was started (root reads anyone's). */
export function processEnvironment(pid: number, name: string): string | undefined {
  try {
    const prefix = `${name}=`;
    return readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .find((entry) => entry.startsWith(prefix))
      ?.slice(prefix.length);
  } catch {
    return undefined;
  }
}

/** PIDs of live (non-zombie) processes in process group `pgid` (read from /proc). */
export function processGroupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(entry);
    if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') {
      members.push(Number(entry));
    }
  }
  return members;
}

/** Sends a signal; a process already gone is no error. */
export function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** The last `lines` lines of a text file (from its last 64 KiB), or a note why it could not be read. */
export async function readLogTail(file: string, lines = 30): Promise<string> {
  try {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      const length = Math.min(size, 64 * 1024);
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, size - length);
      return buffer
        .toString('utf8')
        .split('\n')
        .slice(-lines - 1)
        .join('\n')
        .trimEnd();
    } finally {
      await handle.close();
    }
  } catch (error) {
    return `(log ${file} unreadable: ${(error as Error).message})`;
  }
}

/** "was killed by SIGKILL", "exited with code 1". */
export function describeExit(exit: ExitInfo): string {
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}

/** How long a stopped or failed service's last output may take to reach its log file. */
const LOG_FLUSH_WAIT_MS = 2000;

/**
 * Spawns a long-running service, with stdout/stderr appended to `logFile` (rotated, owner-only:
 * {@link writeServiceLog}), in its own process group (`detached`), so that `stop()` can end
 * everything it started. Throws if the command cannot be spawned (e.g. not installed).
 */
export async function startProcess(options: StartProcessOptions): Promise<SupervisedProcess> {
  const { name, logFile } = options;
  const stopTimeoutMs = options.stopTimeoutMs ?? 5000;
  const user = runAsOf(options);
  const [command, args, spawnUser] = options.netns
    ? [
        'nsenter',
        [
          `--net=${options.netns}`,
          ...nsenterUser(user),
          '--',
          options.command,
          ...(options.args ?? []),
        ],
        undefined,
      ]
    : [options.command, options.args ?? [], user];
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    ...spawnUser,
    detached: true,
    // Pipes to us rather than the file itself: a server cannot rotate a file it writes blindly.
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = writeServiceLog(
    logFile,
    [child.stdout, child.stderr].flatMap((stream) => stream ?? []),
    options.logRotation ?? DEFAULT_LOG_ROTATION,
  );

  let exitInfo: ExitInfo | undefined;
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once('exit', (code, sig) => {
      exitInfo = { code, signal: sig };
      // Forget an emptied group: its id could be reused by unrelated processes.
      if (child.pid !== undefined && processGroupMembers(child.pid).length === 0) {
        live.delete(child.pid);
      }
      resolve(exitInfo);
    });
  });
  const pid = await new Promise<number>((resolve, reject) => {
    child.once('spawn', () => resolve(child.pid as number));
    child.once('error', (error) =>
      reject(new Error(`${name}: cannot start ${options.command}: ${error.message}`)),
    );
  });
  live.add(pid);
  installExitHook();

  const logTail = (lines = 30): Promise<string> => readLogTail(logFile, lines);

  async function failure(reason: string): Promise<Error> {
    // An exited service's last words may still be on their way to the file.
    if (exitInfo) await output.written(LOG_FLUSH_WAIT_MS);
    return new Error(`${name} ${reason}\n--- last lines of ${logFile} ---\n${await logTail()}`);
  }

  async function waitUntilReady(
    check: () => Promise<boolean>,
    waitOptions: WaitOptions = {},
  ): Promise<void> {
    const timeoutMs = waitOptions.timeoutMs ?? 20_000;
    const intervalMs = waitOptions.intervalMs ?? 50;
    const deadline = Date.now() + timeoutMs;
    let lastProblem = 'check returned false';
    for (;;) {
      if (exitInfo) throw await failure(`${describeExit(exitInfo)} before it was ready`);
      try {
        if (await check()) return;
      } catch (error) {
        lastProblem = (error as Error).message;
      }
      if (exitInfo) throw await failure(`${describeExit(exitInfo)} before it was ready`);
      if (Date.now() >= deadline) {
        throw await failure(`not ready after ${timeoutMs} ms (last check: ${lastProblem})`);
      }
      await Promise.race([sleep(intervalMs), exited]);
    }
  }

  /** Waits until the spawned process and `target` are gone, or the deadline. */
  async function waitGone(target: number, deadline: number): Promise<boolean> {
    for (;;) {
      if (exitInfo && !isProcessAlive(target)) return true;
      if (Date.now() >= deadline) return false;
      // Once `exited` has settled, racing it would spin without yielding.
      await (exitInfo ? sleep(25) : Promise.race([sleep(25), exited]));
    }
  }

  let stopping: Promise<void> | undefined;
  async function doStop(): Promise<void> {
    let target = exitInfo ? pid : ((await options.stopPid?.()) ?? -pid);
    // Never signal a PID outside the service's group (e.g. from a stale pid file).
    if (target > 0 && procStat(target)?.pgrp !== pid) target = -pid;
    if (!exitInfo) signal(target, 'SIGTERM');
    const graceful = await waitGone(Math.abs(target), Date.now() + stopTimeoutMs);
    if (!graceful) {
      signal(-pid, 'SIGKILL');
      signal(Math.abs(target), 'SIGKILL');
      if (!(await waitGone(Math.abs(target), Date.now() + 2000))) {
        throw await failure(`did not exit after SIGKILL (pid ${pid}, signalled ${target})`);
      }
    }
    // Helpers left in the group (e.g. a child the main process did not reap
    // or end) must not outlive the service.
    if (processGroupMembers(pid).length > 0) {
      signal(-pid, 'SIGKILL');
      const deadline = Date.now() + 2000;
      while (processGroupMembers(pid).length > 0 && Date.now() < deadline) await sleep(25);
    }
    live.delete(pid);
    await output.written(LOG_FLUSH_WAIT_MS);
  }

  return {
    name,
    pid,
    logFile,
    exited,
    get exitInfo() {
      return exitInfo;
    },
    waitUntilReady,
    stop() {
      stopping ??= doStop();
      return stopping;
    },
    logTail,
  };
}

/** A TCP port that was free on 127.0.0.1 a moment ago (bind to port 0, read it, release it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not read the bound port'));
      });
    });
  });
}
