// `npm test`: every workspace's unit and integration tests (Vitest), then the end-to-end
// journeys (Playwright) and the scale-out journeys on the simulated cluster, each inside its own
// network namespace (scripts/isolated), ending with one summary line `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { buildAppsIfStale } from '../build-apps.ts';
import { ensureDebianPackages, RUNTIME_PACKAGES, TEST_PACKAGES } from '../debian.ts';

const repoRoot = resolve(import.meta.dirname, '../../..');
const artifacts = resolve(repoRoot, 'artifacts');
const log = (line: string) => console.log(`[test] ${line}`);

type Tally = { passed: number; failed: number };

const vitestReport = z.object({ numPassedTests: z.number(), numFailedTests: z.number() });
const playwrightReport = z.object({
  stats: z.object({ expected: z.number(), unexpected: z.number(), flaky: z.number() }),
});

function isolated(args: string[]): number {
  const result = spawnSync(resolve(repoRoot, 'scripts/isolated'), args, {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  return result.status ?? 1;
}

/** Reads a runner's JSON report; a missing or unreadable report means the runner itself failed. */
function readTally(file: string, parse: (json: unknown) => Tally): Tally | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return undefined;
  }
}

ensureDebianPackages([...RUNTIME_PACKAGES, ...TEST_PACKAGES], log);
buildAppsIfStale(repoRoot, log);
mkdirSync(artifacts, { recursive: true });

const vitestJson = resolve(artifacts, 'vitest.json');
const playwrightJson = resolve(artifacts, 'e2e/report.json');
const clusterJson = resolve(artifacts, 'e2e-cluster/report.json');
for (const file of [vitestJson, playwrightJson, clusterJson]) rmSync(file, { force: true });

log('Unit and integration tests (Vitest)…');
const vitestStatus = isolated([
  'npx',
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
]);
log('End-to-end journeys (Playwright, Chromium)…');
const playwrightStatus = isolated(['npx', 'playwright', 'test', '-c', 'e2e/playwright.config.ts']);
log('Scale-out journeys on the simulated cluster (Playwright, decision 0041)…');
const clusterStatus = isolated([
  'npx',
  'playwright',
  'test',
  '-c',
  'e2e/cluster/playwright.config.ts',
]);

const vitest = readTally(vitestJson, (json) => {
  const r = vitestReport.parse(json);
  return { passed: r.numPassedTests, failed: r.numFailedTests };
});
const playwrightTally = (json: unknown): Tally => {
  const { stats } = playwrightReport.parse(json);
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected };
};
const playwright = readTally(playwrightJson, playwrightTally);
const cluster = readTally(clusterJson, playwrightTally);

const total: Tally = { passed: 0, failed: 0 };
for (const [name, tally, status] of [
  ['Vitest', vitest, vitestStatus],
  ['Playwright', playwright, playwrightStatus],
  ['Playwright (cluster)', cluster, clusterStatus],
] as const) {
  if (!tally) {
    // A runner that crashed before reporting counts as one failure, never as silence.
    log(`${name} exited with ${status} and wrote no report.`);
    total.failed += 1;
    continue;
  }
  total.passed += tally.passed;
  total.failed += tally.failed + (status !== 0 && tally.failed === 0 ? 1 : 0);
}
console.log(`${total.passed} passed, ${total.failed} failed`);
process.exit(total.failed > 0 || total.passed === 0 ? 1 : 0);
