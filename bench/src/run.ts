// The measurements themselves, run by cli.ts inside scripts/isolated. Prints one table and
// writes bench/results/<date>.json. Figures only: nothing here passes or fails on time.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { measureIdleMemory } from './api/idle-memory.ts';
import { measureApiThroughput } from './api/throughput.ts';
import { measureCallSetup, measureRecovery } from './call/call-flow.ts';
import { measureP2pCallSetup } from './call/p2p-call.ts';
import { measureCluster, type ClusterPlan } from './cluster/index.ts';
import { measureJanusCapacity } from './janus/capacity.ts';
import { resultsDir } from './paths.ts';
import { rssBytes } from './proc.ts';
import { measureReports } from './reports/report-speed.ts';
import { formatTable, mb, type Memory, type Row, type Section } from './report.ts';
import { startBenchStack } from './stack.ts';
import { measureBrandedPaint } from './web/branded-paint.ts';
import { launchChromium } from './web/browser.ts';
import { measurePageWeight } from './web/page-weight.ts';
import { measureXmppCapacity } from './xmpp/capacity.ts';

/**
 * How long and how far each benchmark goes. FULL is sized for issue 22's 15 minutes (each
 * benchmark's seconds are printed and kept in the results file); `--quick` is a few minutes.
 */
type Plan = {
  /** Cold visits of the branded page, each beside one of its floor (web/branded-paint.ts). */
  paintRuns: number;
  /** Calls for the queue and first-frame figures, each beside its floors; recoveries of each kind. */
  calls: number;
  /**
   * Calls for the p2p first-frame figure: fewer than `calls` in the full plan, which must stay
   * under 15 minutes on a quiet box (issue 22; docs/performance.md, its durations).
   */
  p2pCalls: number;
  recoveries: number;
  /**
   * Run-to-run spread (issue 22): each headline figure's samples are cut, in the order they were
   * taken, into this many stretches, and the table prints the range of their p50s.
   */
  batches: number;
  apiSeconds: number;
  janusSteps: readonly number[];
  janusSeconds: number;
  xmppSteps: readonly number[];
  xmppSeconds: number;
  /** ejabberd nodes in the XMPP benchmark's cluster: each VM holds ~10,000 sessions' sockets here. */
  xmppNodes: number;
  /** Timed requests of each report (after warm-up), and CSV exports of the whole range. */
  reportRequests: number;
  reportExports: number;
  /** Issue 21's figures (docs/scaling.md): placement, calls set up and held, one of each server against two. */
  cluster: ClusterPlan;
};

const QUICK: Plan = {
  paintRuns: 5,
  calls: 3,
  p2pCalls: 3,
  recoveries: 1,
  batches: 1,
  apiSeconds: 3,
  janusSteps: [4, 8],
  janusSeconds: 6,
  xmppSteps: [200, 500],
  xmppSeconds: 6,
  xmppNodes: 2,
  reportRequests: 10,
  reportExports: 1,
  cluster: {
    placement: { servers: [1, 2, 8], liveCalls: 1000, placements: 50, concurrency: 4 },
    liveCalls: { steps: [2, 4], seconds: 6, concurrency: 2 },
  },
};
const FULL: Plan = {
  paintRuns: 12,
  calls: 10,
  p2pCalls: 6,
  recoveries: 5,
  batches: 4,
  apiSeconds: 10,
  // Sized for the 15 minutes (issue 22): on a quiet box on 27 November, [5 … 80] with 15 s
  // windows took 626 s of a 1,351 s run, most of it setting up each step's calls from scratch on
  // both Janus; our Janus was clean at 60 and stock's last clean step was 50.
  janusSteps: [20, 40, 60],
  janusSeconds: 10,
  xmppSteps: [2000, 5000, 10_000, 15_000, 20_000],
  xmppSeconds: 10,
  xmppNodes: 2,
  reportRequests: 30,
  reportExports: 3,
  cluster: {
    // Sized for the 15 minutes with the rest (issue 22): the run of 27 November took 638 s here at
    // load 20-29 with 300 placements, steps to 24 (two waits for the registration limit) and 15 s.
    placement: { servers: [1, 2, 8], liveCalls: 10_000, placements: 100, concurrency: 4 },
    liveCalls: { steps: [4, 8, 12], seconds: 10, concurrency: 4 },
  },
};

const quick = process.argv.includes('--quick');
const plan = quick ? QUICK : FULL;
/**
 * `--only apiThroughput,xmppCapacity`: the named benchmarks alone, for working on one figure.
 * Such a run prints its table but keeps the day's results file, which holds whole runs only.
 */
const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex >= 0 ? new Set(process.argv[onlyIndex + 1]?.split(',') ?? []) : null;
const wanted = (name: string) => !only || only.has(name);
const log = (line: string) => console.log(`[bench] ${line}`);
const startedAt = Date.now();
const loadAverageAtStart = loadavg();
const sections: Record<string, Section | { error: string }> = {};
/** Seconds each benchmark took, for sizing the plan (the full run must stay under 15 minutes). */
const durations: Record<string, number> = {};

/** Runs one benchmark; a crash is reported in the table and the run goes on with the others. */
async function run(name: string, measure: () => Promise<Section>): Promise<void> {
  if (!wanted(name)) return;
  log(`${name}…`);
  const benchmarkStartedAt = Date.now();
  try {
    const section = await measure();
    sections[name] = section;
    // Printed as each benchmark ends, so a later crash or hang does not lose them.
    for (const row of section.rows) {
      log(`  ${row.figure}: ${row.measured}; floor ${row.floor ?? '—'} (${row.note})`);
    }
  } catch (error) {
    console.error(error);
    sections[name] = { error: error instanceof Error ? error.message : String(error) };
  }
  durations[name] = Math.round((Date.now() - benchmarkStartedAt) / 1000);
  log(`  ${name} took ${durations[name]} s`);
}

const browserBenchmarks = [
  'pageWeight',
  'brandedPaint',
  'callSetup',
  'p2pCallSetup',
  'janusRecovery',
  'networkRecovery',
];
let apiIdleRss = 0;
if ([...browserBenchmarks, 'apiMemory', 'apiThroughput', 'reports'].some(wanted)) {
  const stack = await startBenchStack(log);
  apiIdleRss = rssBytes(stack.apiPid);
  try {
    // First, while the API has served nothing but the stack's own start.
    await run('apiMemory', () => measureIdleMemory(stack.apiPid));
    const idle = sections.apiMemory;
    if (idle && 'data' in idle) apiIdleRss = Number(idle.data.apiRss);
    if (browserBenchmarks.some(wanted)) {
      const browser = await launchChromium();
      try {
        await run('pageWeight', () => measurePageWeight(browser, stack.url));
        await run('brandedPaint', () =>
          measureBrandedPaint(browser, stack.url, plan.paintRuns, plan.batches),
        );
        await run('callSetup', () =>
          measureCallSetup(browser, stack, plan.calls, plan.batches, log),
        );
        await run('p2pCallSetup', () =>
          measureP2pCallSetup(browser, stack, plan.p2pCalls, plan.batches, log),
        );
        await run('janusRecovery', () =>
          measureRecovery(browser, stack, 'janus', plan.recoveries, plan.batches),
        );
        await run('networkRecovery', () =>
          measureRecovery(browser, stack, 'network', plan.recoveries, plan.batches),
        );
      } finally {
        await browser.close();
      }
    }
    await run('apiThroughput', () => measureApiThroughput(stack, plan.apiSeconds));
    // Last on this stack: its 100,000 seeded conversations would weigh on the figures above.
    await run('reports', () =>
      measureReports(stack, { requests: plan.reportRequests, exports: plan.reportExports }, log),
    );
  } finally {
    await stack.stop();
  }
}
// The capacity runs get servers of their own, with the rest of the stack stopped.
await run('janusCapacity', () => measureJanusCapacity(plan.janusSteps, plan.janusSeconds, log));
await run('xmppCapacity', () =>
  measureXmppCapacity(plan.xmppSteps, plan.xmppSeconds, plan.xmppNodes, log),
);
await run('cluster', () => measureCluster(plan.cluster, log));

const rows: Row[] = [];
const memory: Memory[] = [];
for (const [name, section] of Object.entries(sections)) {
  if ('error' in section) {
    rows.push({ figure: name, measured: 'did not run', goal: '', note: section.error });
    continue;
  }
  rows.push(...section.rows);
  if (section.memory) memory.push(section.memory);
}
const throughput = sections.apiThroughput;
if (throughput && 'data' in throughput) {
  memory.unshift({
    service: 'API',
    idle: apiIdleRss,
    loaded: Number(throughput.data.apiPeakRss),
    load: 'autocannon, 50 connections',
  });
}
for (const m of memory) {
  rows.push({
    figure: `Memory: ${m.service} (RSS)`,
    measured: `${mb(m.idle)} idle → ${mb(m.loaded)}`,
    goal: 'reported',
    note: `under ${m.load}`,
  });
}

const durationS = Math.round((Date.now() - startedAt) / 1000);
const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memoryGb: Math.round(totalmem() / 1024 ** 3),
  node: process.version,
  loadAverageAtStart,
};
console.log(`\n${formatTable(rows)}\n`);
console.log(
  `Each benchmark's seconds: ${Object.entries(durations)
    .map(([name, seconds]) => `${name} ${seconds}`)
    .join(', ')}.`,
);
console.log(
  `${quick ? 'Quick' : 'Full'} run, ${durationS} s in all, on ${machine.cores} × ${machine.cpu}, ` +
    `${machine.memoryGb} GB; load average at start ${machine.loadAverageAtStart.map((l) => l.toFixed(1)).join(' ')}.`,
);
if (!only) {
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${new Date().toISOString().slice(0, 10)}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), mode: quick ? 'quick' : 'full', durationS, machine, plan, durations, rows, memory, sections }, null, 2)}\n`,
  );
  log(`Wrote ${file}.`);
}
process.exit(Object.values(sections).some((s) => 'error' in s) ? 1 : 0);
