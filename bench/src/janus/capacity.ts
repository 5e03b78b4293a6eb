import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { mintJanusToken, startJanus } from '@frontdesk/infra';
import { nextMessage } from '../ipc.ts';
import { cpuWindow, machineWindow, rssBytes } from '../proc.ts';
import { pct, type Section } from '../report.ts';
import { fitLine, summarize, type Summary } from '../stats.ts';
import type { GeneratorCommand, GeneratorReply } from './generator.ts';
import { AUDIO_KBPS, ensureClipFiles, VIDEO_KBPS } from './media.ts';

/**
 * docs/operations.md: one Node process stays clean to ~20 calls (40 publisher+subscriber pairs).
 */
const CALLS_PER_GENERATOR = 10;
/** A subscriber losing more than this share of its packets makes the step unclean. */
const CLEAN_LOSS = 0.01;

export type Step = {
  calls: number;
  connected: number;
  setupErrors: string[];
  setupMs: Summary;
  /** Wall time of the set-up in the slowest generator (they set up side by side). */
  setupS: number;
  janusCpu: number;
  janusRss: number;
  loss: Summary;
  /** Packets each subscriber received per second: shows media really flowed. */
  packetRate: Summary;
  generatorCpu: number;
  generatorLagP99Ms: number;
  machineBusy: number;
  troubleEvents: number;
  clean: boolean;
};

const ask = (child: ChildProcess, command: GeneratorCommand) => child.send(command);

/** How long a step's generators may take to answer, beyond the measured window itself. */
const answerDeadlineMs = (calls: number) => 30_000 + 1000 * calls;

/** `work`, or a rejection naming `what` when it has not settled within `ms`: a hung step ends. */
function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** What each of a step's generator processes sets up: its share of the step's calls. */
export type StepSetup = (generator: number, generators: number) => GeneratorCommand;

/**
 * One step: `calls` calls set up by forked generators, settled, then their loss counted over
 * `seconds`, with the CPU and memory of the Janus processes `janusPids` over the same window.
 */
export async function runStep(
  setup: StepSetup,
  calls: number,
  seconds: number,
  janusPids: readonly number[],
): Promise<Step> {
  const count = Math.ceil(calls / CALLS_PER_GENERATOR);
  const generators = Array.from({ length: count }, () =>
    fork(new URL('./generator.ts', import.meta.url), { execArgv: ['--import', 'tsx'] }),
  );
  try {
    const replies = generators.map((child, g) => {
      const ready = nextMessage<GeneratorReply, 'ready'>(child, 'ready');
      ask(child, setup(g, count));
      return ready;
    });
    const ready = await within(Promise.all(replies), answerDeadlineMs(calls), 'call set-up');
    const setupS = Math.max(...ready.map((r) => r.wallMs)) / 1000;
    // Let every publisher's first keyframe and Janus's PLIs settle before counting.
    await sleep(2000);
    await within(
      Promise.all(
        generators.map((child) => {
          const marked = nextMessage<GeneratorReply, 'marked'>(child, 'marked');
          ask(child, { type: 'mark' });
          return marked;
        }),
      ),
      answerDeadlineMs(calls),
      'counter reset',
    );
    const janusCpu = janusPids.map((pid) => cpuWindow(pid));
    const machine = machineWindow();
    await sleep(seconds * 1000);
    const reports = await within(
      Promise.all(
        generators.map((child) => {
          const report = nextMessage<GeneratorReply, 'report'>(child, 'report');
          ask(child, { type: 'report' });
          return report;
        }),
      ),
      answerDeadlineMs(calls),
      'report',
    );
    const janusShare = janusCpu.reduce((sum, window) => sum + window.stop(), 0);
    const machineBusy = machine.stop();
    const janusRss = janusPids.reduce((sum, pid) => sum + rssBytes(pid), 0);
    const subscribers = reports.flatMap((r) => r.subscribers);
    const losses = subscribers.map((s) =>
      s.expected <= 0 ? 1 : Math.max(0, s.expected - s.received) / s.expected,
    );
    const connected = ready.reduce((sum, r) => sum + r.connected, 0);
    const loss = summarize(losses);
    return {
      calls,
      connected,
      setupErrors: ready.flatMap((r) => r.errors),
      setupMs: summarize(ready.flatMap((r) => r.setupMs)),
      setupS,
      janusCpu: janusShare,
      janusRss,
      loss,
      packetRate: summarize(subscribers.map((s) => s.received / seconds)),
      generatorCpu: reports.reduce((sum, r) => sum + r.cpuSeconds, 0) / seconds,
      generatorLagP99Ms: Math.max(...reports.map((r) => r.lagP99Ms)),
      machineBusy,
      troubleEvents: reports.reduce((sum, r) => sum + r.troubleEvents, 0),
      clean: connected === calls && subscribers.length === calls * 2 && loss.max <= CLEAN_LOSS,
    };
  } finally {
    await Promise.all(
      generators.map(async (child) => {
        if (child.exitCode !== null) return;
        const exited = once(child, 'exit');
        ask(child, { type: 'stop' });
        await Promise.race([exited, sleep(10_000).then(() => child.kill('SIGKILL'))]);
      }),
    );
  }
}

/**
 * Janus capacity: N concurrent 1:1 calls from werift generators sending pre-encoded media, N
 * stepped up until a step is not clean (a call failed to set up, or a subscriber lost more
 * than 1 % of its packets). Janus's CPU and RSS come from /proc over the measured window.
 */
export async function measureJanusCapacity(
  steps: readonly number[],
  seconds: number,
  log: (line: string) => void,
): Promise<Section> {
  ensureClipFiles();
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-bench-janus-'));
  // Janus runs as its own user when we are root: it must enter the folder.
  chmodSync(dir, 0o711);
  const secret = () => randomBytes(18).toString('base64url');
  const tokenSecret = secret();
  const adminKey = secret();
  const janus = await startJanus({
    dir,
    tokenSecret,
    adminKey,
    adminSecret: secret(),
    recordingsDir: join(dir, 'recordings'),
    // Four peer connections per call, one port each.
    rtpPortRange: [30000, 31000],
    iceEnforceList: 'veth0',
  });
  const idleRss = rssBytes(janus.pid);
  const results: Step[] = [];
  /** A step that never answered: the limit, said in words. */
  let hung: string | undefined;
  try {
    const token = mintJanusToken(tokenSecret, 3600);
    for (const calls of steps) {
      let step: Step;
      try {
        step = await runStep(
          (g, count) => ({
            type: 'setup',
            httpUrl: janus.httpUrl,
            token,
            adminKey,
            rooms: Array.from({ length: calls }, (_, i) => `bench-${calls}-${i}`).filter(
              (_, i) => i % count === g,
            ),
          }),
          calls,
          seconds,
          [janus.pid],
        );
      } catch (error) {
        hung = `${calls} calls: ${error instanceof Error ? error.message : String(error)}`;
        log(`  ${hung}`);
        break;
      }
      results.push(step);
      log(
        `  ${calls} calls: ${step.connected} up, Janus ${pct(step.janusCpu)} of a core, ` +
          `worst subscriber loss ${pct(step.loss.max)}, ${Math.round(step.packetRate.p50)} packets/s ` +
          `per subscriber, generators ${pct(step.generatorCpu)}, set-up p50 ${Math.round(step.setupMs.p50)} ms` +
          (step.setupErrors.length > 0
            ? `, errors: ${step.setupErrors.slice(0, 3).join('; ')}`
            : ''),
      );
      if (!step.clean) break;
    }
  } finally {
    await janus.stop();
    rmSync(dir, { recursive: true, force: true });
  }

  const best = results.filter((step) => step.clean).at(-1);
  const streamKbps = VIDEO_KBPS + AUDIO_KBPS;
  const stopped = results.at(-1);
  const limit = hung
    ? hung
    : stopped && !stopped.clean
      ? `${stopped.calls} calls not clean (${stopped.connected} up, worst loss ${pct(stopped.loss.max)}, box ${pct(stopped.machineBusy)} busy)`
      : 'every step clean: the plan ended, not Janus';
  if (!best) {
    return {
      rows: [
        {
          figure: 'Janus capacity (1:1 calls)',
          measured: 'no clean step',
          goal: '≥ 100 calls per core',
          note: limit,
        },
      ],
      data: { steps: results, idleRss },
    };
  }
  // Janus's CPU as a line through the clean steps: what each call adds (the slope) and what
  // Janus spends with none (timers, transports); a core holds the calls whose slopes fill what
  // the base leaves. With one clean step only, that step's average stands for the slope.
  const clean = results.filter((step) => step.clean);
  const line =
    clean.length >= 2
      ? fitLine(clean.map((step) => [step.calls, step.janusCpu] as const))
      : { intercept: 0, slope: best.janusCpu / best.calls };
  const callsPerCore = Math.round((1 - Math.max(0, line.intercept)) / line.slope);
  return {
    rows: [
      {
        figure: 'Janus capacity (1:1 calls)',
        measured: `${best.calls} calls clean, ${callsPerCore} calls/core (extrapolated)`,
        goal: '≥ 100 calls per core',
        note: `Janus ${pct(best.janusCpu)} of a core at ${best.calls} calls; ${limit}`,
      },
      {
        figure: 'Janus CPU per call',
        measured: `${(line.slope * 100).toFixed(2)} % of a core`,
        goal: 'reported',
        note:
          `each call adds (line through ${clean.length} clean steps; ${pct(Math.max(0, line.intercept))} with none); ` +
          `4 streams of ~${streamKbps} kbit/s (VP8 ${VIDEO_KBPS}k + Opus ${AUDIO_KBPS}k) per call`,
      },
      {
        figure: 'Loss per subscriber',
        measured: `p50 ${pct(best.loss.p50)}, max ${pct(best.loss.max)}`,
        goal: 'clean ≤ 1 %',
        note: `at ${best.calls} calls; generators ${pct(best.generatorCpu)} of a core, lag p99 ${Math.round(best.generatorLagP99Ms)} ms`,
      },
    ],
    data: {
      steps: results,
      idleRss,
      cleanLoss: CLEAN_LOSS,
      cpuLine: line,
      callsPerGenerator: CALLS_PER_GENERATOR,
    },
    memory: { service: 'Janus', idle: idleRss, loaded: best.janusRss, load: `${best.calls} calls` },
  };
}
