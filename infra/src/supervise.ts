// Keeps the stack's servers running: restarts a server that died, with backoff; owns the data
// folder for one supervisor at a time; and stops what a supervisor killed with SIGKILL left.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  describeExit,
  isProcessAlive,
  listProcesses,
  procStat,
  processGroupMembers,
  signal,
  type ExitInfo,
  type ProcessInfo,
} from './process.ts';

/** What the supervisor needs of a running server. */
export interface Service {
  /** Resolves when the server's process has exited, for whatever reason. */
  readonly exited: Promise<ExitInfo>;
  stop(): Promise<void>;
}

/** How soon a dead server is started again. */
export type RestartPolicy = {
  /** Wait before the first restart; each failed or short-lived run doubles it. */
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
  /** A run this long counts as healthy: the next crash waits `firstDelayMs` again. */
  readonly stableAfterMs: number;
};

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  firstDelayMs: 1000,
  maxDelayMs: 30_000,
  stableAfterMs: 60_000,
};

type SupervisedOptions<T> = {
  readonly name: string;
  /** Starts the server again; `previous` is the run that ended (its ports, for instance). */
  readonly start: (previous: T) => Promise<T>;
  readonly policy: RestartPolicy;
  readonly log: (line: string) => void;
  /** Called each time the server is back after a crash (dependants may retry at once). */
  readonly onBack?: () => void;
};

const firstLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0];

/**
 * One server under supervision. When its process exits without being asked to, the rest of its
 * process group is ended and it is started again after a delay that doubles on each failure up
 * to `maxDelayMs`. `restart()` restarts by hand; `stop()` ends supervision and the server.
 */
export class Supervised<T extends Service> {
  #current: T;
  #up = true;
  #startedAt = Date.now();
  #failures = 0;
  #restarts = 0;
  #halted = false;
  /** The run whose exit is expected (a restart by hand), not a crash. */
  #expected: T | undefined;
  #recovering: Promise<void> = Promise.resolve();
  #wake: (() => void) | undefined;

  constructor(
    first: T,
    private readonly options: SupervisedOptions<T>,
  ) {
    this.#current = first;
    this.#watch(first);
  }

  get current(): T {
    return this.#current;
  }

  /** False from a crash until the server is back. */
  get up(): boolean {
    return this.#up;
  }

  /** Restarts after crashes so far. */
  get restarts(): number {
    return this.#restarts;
  }

  /** Ends a pending backoff wait now, e.g. because what the server needs is back. */
  kick(): void {
    this.#wake?.();
  }

  #watch(run: T): void {
    void run.exited.then((exit) => {
      if (run !== this.#current || run === this.#expected || this.#halted) return;
      this.#recovering = this.#recover(run, describeExit(exit));
    });
  }

  async #recover(run: T, why: string): Promise<void> {
    const { name, log, policy } = this.options;
    this.#up = false;
    if (Date.now() - this.#startedAt >= policy.stableAfterMs) this.#failures = 0;
    // A crashed leader can leave helpers in its group (PostgreSQL's backends hold its shared
    // memory, and a new postmaster refuses to start beside them).
    await run.stop().catch(() => undefined);
    for (;;) {
      if (this.#halted) return;
      const delayMs = Math.min(policy.firstDelayMs * 2 ** this.#failures, policy.maxDelayMs);
      this.#failures += 1;
      log(`${name} ${why}; restarting in ${delayMs / 1000} s`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delayMs);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
      if (this.#halted) return;
      const started = Date.now();
      try {
        const next = await this.options.start(run);
        if (this.#halted) {
          await next.stop();
          return;
        }
        this.#adopt(next);
        this.#restarts += 1;
        log(`${name} is back (${((Date.now() - started) / 1000).toFixed(1)} s to start)`);
        this.options.onBack?.();
        return;
      } catch (error) {
        why = `did not start (${firstLine(error)})`;
      }
    }
  }

  #adopt(run: T): void {
    this.#current = run;
    this.#up = true;
    this.#startedAt = Date.now();
    this.#watch(run);
  }

  /**
   * Stops the server and starts it again on the same state (the fault journeys). When that
   * start fails, the backoff loop goes on trying.
   */
  restart(): Promise<void> {
    if (this.#halted) return Promise.reject(new Error(`${this.options.name} is stopping`));
    if (!this.#up) {
      // Down already and waiting: a fresh start is what the backoff loop does next.
      this.kick();
      return this.#recovering;
    }
    const previous = this.#current;
    this.#expected = previous;
    this.#up = false;
    const attempt = (async () => {
      await previous.stop();
      this.#adopt(await this.options.start(previous));
    })();
    this.#recovering = attempt.catch((error: unknown) =>
      this.#recover(previous, `did not start (${firstLine(error)})`),
    );
    return attempt;
  }

  /** From now on a death is not restarted (the first step of stopping the stack). */
  halt(): void {
    this.#halted = true;
    this.#wake?.();
  }

  /** Ends supervision and stops the server. Idempotent. */
  async stop(): Promise<void> {
    this.halt();
    await this.#recovering;
    await this.#current.stop();
  }
}

/** A supervised server, whatever it runs. */
export type SupervisedServer = Pick<
  Supervised<Service>,
  'up' | 'restarts' | 'kick' | 'restart' | 'halt' | 'stop'
>;

/** A supervisor's claim on a data folder: its PID and start time, so a reused PID is no claim. */
type Claim = { pid: number; startTime: number };

/**
 * Claims the data folder for this process (`supervisor.pid`), refusing when a live supervisor
 * holds it. Returns the release.
 */
export function claimDataDir(root: string): () => void {
  const file = join(root, 'supervisor.pid');
  let holder: Claim | undefined;
  try {
    holder = JSON.parse(readFileSync(file, 'utf8')) as Claim;
  } catch {
    holder = undefined;
  }
  if (
    holder &&
    holder.pid !== process.pid &&
    isProcessAlive(holder.pid) &&
    procStat(holder.pid)?.startTime === holder.startTime
  ) {
    throw new Error(
      `Frontdesk already runs with the data folder ${root} (pid ${holder.pid}); stop it first`,
    );
  }
  const mine: Claim = { pid: process.pid, startTime: procStat(process.pid)?.startTime ?? 0 };
  writeFileSync(file, `${JSON.stringify(mine)}\n`);
  return () => {
    try {
      const current = JSON.parse(readFileSync(file, 'utf8')) as Claim;
      if (current.pid === mine.pid && current.startTime === mine.startTime) rmSync(file);
    } catch {
      // already gone
    }
  };
}

/** Recognises one kind of server that a previous run of this data folder may have left. */
export type Leftover = {
  readonly name: string;
  readonly matches: (proc: ProcessInfo) => boolean;
  /** The graceful stop; default SIGTERM. */
  readonly signal?: NodeJS.Signals;
};

/**
 * Stops the processes that `kinds` recognise (servers of this data folder whose supervisor was
 * killed): the graceful signal, then SIGKILL for each one and its process group after
 * `graceMs`. Returns what it stopped, e.g. `janus (pid 42)`.
 */
export async function stopLeftovers(
  kinds: readonly Leftover[],
  graceMs = 10_000,
): Promise<string[]> {
  const found = listProcesses().flatMap((proc) => {
    const kind = kinds.find((candidate) => candidate.matches(proc));
    return kind ? [{ proc, kind }] : [];
  });
  for (const { proc, kind } of found) signal(proc.pid, kind.signal ?? 'SIGTERM');
  const gone = () => found.every(({ proc }) => !isProcessAlive(proc.pid));
  const deadline = Date.now() + graceMs;
  while (!gone() && Date.now() < deadline) await sleep(50);
  for (const { proc } of found) {
    signal(proc.pid, 'SIGKILL');
    // A server that leads its group takes its helpers along (PostgreSQL's backends).
    if (proc.pgrp === proc.pid && processGroupMembers(proc.pid).length > 0) {
      signal(-proc.pid, 'SIGKILL');
    }
  }
  // A group's helpers die of their SIGKILL a moment after it is sent: wait for them too, or the
  // next start could meet one still holding a port or a file.
  const groupsGone = () =>
    found.every(({ proc }) => proc.pgrp !== proc.pid || processGroupMembers(proc.pid).length === 0);
  const killDeadline = Date.now() + 2000;
  while (!(gone() && groupsGone()) && Date.now() < killDeadline) await sleep(25);
  return found.map(({ proc, kind }) => `${kind.name} (pid ${proc.pid})`);
}
