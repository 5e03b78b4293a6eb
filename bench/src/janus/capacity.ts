import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { mintJanusToken, startJanus } from '@frontdesk/infra';
import { nextMessage } from '../ipc.ts';
import { cpuWindow, machineWindow, rssBytes } from '../proc.ts';
import { pct, type Section } from '../report.ts';
import { fitLine, summarize, type Summary } from '../stats.ts';
import type { GeneratorCommand, GeneratorReply } from './generator.ts';
import { AUDIO_KBPS, ensureClipFiles, VIDEO_KBPS } from './media.ts';
import { startStockJanus } from './stock-janus.ts';

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
 * Calls per core from Janus's CPU with no call (`idle`, measured) and at each clean step, and
 * the line through them it comes from.
 */
function perCore(
  idle: number,
  results: readonly Step[],
): { callsPerCore: number; line: { intercept: number; slope: number }; clean: Step[] } | undefined {
  const clean = results.filter((step) => step.clean);
  if (clean.length === 0) return undefined;
  // Janus's CPU as a line through the idle point and the clean steps: what each call adds (the
  // slope) and what Janus spends with none (timers, transports, the stock sample rooms); a core
  // holds the calls whose slopes fill what the base leaves. The idle point is measured, so a
  // single clean step still gives both sides' slopes the same way.
  const line = fitLine([
    [0, idle] as const,
    ...clean.map((step) => [step.calls, step.janusCpu] as const),
  ]);
  return { callsPerCore: Math.round((1 - Math.max(0, line.intercept)) / line.slope), line, clean };
}

const stepLine = (who: string, step: Step) =>
  `  ${who} ${step.calls} calls: ${step.connected} up, Janus ${pct(step.janusCpu)} of a core, ` +
  `worst subscriber loss ${pct(step.loss.max)}, ${Math.round(step.packetRate.p50)} packets/s ` +
  `per subscriber, generators ${pct(step.generatorCpu)}, box ${pct(step.machineBusy)} busy, ` +
  `set-up p50 ${Math.round(step.setupMs.p50)} ms` +
  (step.setupErrors.length > 0 ? `, errors: ${step.setupErrors.slice(0, 3).join('; ')}` : '');

/**
 * Janus capacity: N concurrent 1:1 calls from werift generators sending pre-encoded media, N
 * stepped up until a step is clean neither through ours nor through the floor (a call failed
 * to set up, or a subscriber lost more
 * than 1 % of its packets). Janus's CPU and RSS come from /proc over the measured window.
 * Each step runs twice, through our Janus and through Debian's stock one (the floor), the
 * order swapped from one step to the next so that neither always meets the other's leftovers.
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
  const stockDir = mkdtempSync(join(tmpdir(), 'frontdesk-bench-stock-janus-'));
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
  const stock = await startStockJanus(stockDir).catch(async (error: unknown) => {
    await janus.stop();
    throw error;
  });
  const idleRss = rssBytes(janus.pid);
  // Both idle side by side over one window: what each spends before any call.
  const idleWindows = [janus.pid, stock.pid].map((pid) => cpuWindow(pid));
  await sleep(seconds * 1000);
  const [idleCpu = 0, floorIdleCpu = 0] = idleWindows.map((window) => window.stop());
  log(`  idle: ours ${pct(idleCpu)} of a core, stock ${pct(floorIdleCpu)}`);
  const results: Step[] = [];
  const floorResults: Step[] = [];
  const loads: number[][] = [];
  /** A step that never answered: the limit, said in words. */
  let hung: string | undefined;
  try {
    const token = mintJanusToken(tokenSecret, 3600);
    const sides = [
      { who: 'ours', httpUrl: janus.httpUrl, pid: janus.pid, into: results },
      { who: 'stock', httpUrl: stock.httpUrl, pid: stock.pid, into: floorResults },
    ];
    for (const [index, calls] of steps.entries()) {
      const order = index % 2 === 0 ? sides : [...sides].reverse();
      try {
        for (const side of order) {
          const step = await runStep(
            (g, count) => ({
              type: 'setup',
              httpUrl: side.httpUrl,
              token,
              adminKey,
              rooms: Array.from({ length: calls }, (_, i) => `bench-${calls}-${i}`).filter(
                (_, i) => i % count === g,
              ),
            }),
            calls,
            seconds,
            [side.pid],
          );
          side.into.push(step);
          log(stepLine(side.who, step));
        }
      } catch (error) {
        hung = `${calls} calls: ${error instanceof Error ? error.message : String(error)}`;
        log(`  ${hung}`);
        break;
      }
      loads.push(loadavg());
      // On a box this loaded one side's step may fail while the other's passes: go on while
      // either is clean, so that both are measured over the same steps.
      if (!results.at(-1)?.clean && !floorResults.at(-1)?.clean) break;
    }
  } finally {
    await Promise.all([janus.stop(), stock.stop()]);
    rmSync(dir, { recursive: true, force: true });
    rmSync(stockDir, { recursive: true, force: true });
  }

  const ours = perCore(idleCpu, results);
  const floor = perCore(floorIdleCpu, floorResults);
  const best = ours?.clean.at(-1);
  const streamKbps = VIDEO_KBPS + AUDIO_KBPS;
  const stopped = results.at(-1);
  const limit = hung
    ? hung
    : stopped && !stopped.clean
      ? `${stopped.calls} calls not clean (${stopped.connected} up, worst loss ${pct(stopped.loss.max)}, box ${pct(stopped.machineBusy)} busy)`
      : 'every step clean: the plan ended, not Janus';
  const load = `load average ${loads.map((l) => l[0]?.toFixed(1)).join(', ')} after each step`;
  const data = {
    steps: results,
    floorSteps: floorResults,
    loads,
    idleRss,
    idleCpu,
    floorIdleCpu,
    cleanLoss: CLEAN_LOSS,
    cpuLine: ours?.line,
    floorCpuLine: floor?.line,
    callsPerGenerator: CALLS_PER_GENERATOR,
  };
  if (!ours || !best) {
    return {
      rows: [
        {
          figure: 'Janus capacity (1:1 calls)',
          measured: 'no clean step',
          floor: floor ? `stock Janus ${floor.callsPerCore} calls/core` : 'no clean stock step',
          goal: '≥ 100 calls per core',
          note: `${limit}; ${load}`,
        },
      ],
      data,
    };
  }
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
  return {
    rows: [
      {
        figure: 'Janus capacity (1:1 calls)',
        measured: `${best.calls} calls clean, ${ours.callsPerCore} calls/core (extrapolated)`,
        floor: floor
          ? `stock Janus ${floor.callsPerCore} calls/core (${ratio(ours.callsPerCore, floor.callsPerCore)})`
          : 'no clean stock step',
        goal: '≥ 100 calls per core',
        note: `Janus ${pct(best.janusCpu)} of a core at ${best.calls} calls; ${limit}; ${load}`,
      },
      {
        figure: 'Janus CPU per call',
        measured: `${(ours.line.slope * 100).toFixed(2)} % of a core`,
        floor: floor
          ? `stock Janus ${(floor.line.slope * 100).toFixed(2)} % (${ratio(ours.line.slope, floor.line.slope)})`
          : '—',
        goal: 'reported',
        note:
          `each call adds (line through idle and ${ours.clean.length} clean steps; ${pct(Math.max(0, ours.line.intercept))} with none); ` +
          `4 streams of ~${streamKbps} kbit/s (VP8 ${VIDEO_KBPS}k + Opus ${AUDIO_KBPS}k) per call`,
      },
      {
        figure: 'Loss per subscriber',
        measured: `p50 ${pct(best.loss.p50)}, max ${pct(best.loss.max)}`,
        goal: 'clean ≤ 1 %',
        note: `at ${best.calls} calls; generators ${pct(best.generatorCpu)} of a core, lag p99 ${Math.round(best.generatorLagP99Ms)} ms`,
      },
    ],
    data,
    memory: { service: 'Janus', idle: idleRss, loaded: best.janusRss, load: `${best.calls} calls` },
  };
}
