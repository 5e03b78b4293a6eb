// `npm run bench [-- --quick]`: installs what the benchmarks need, builds the apps when stale,
// then runs the measurements inside a network namespace of their own (scripts/isolated), where
// Janus can gather ICE candidates and no media packet uses the host's addresses.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import {
  buildAppsIfStale,
  ensureDebianPackages,
  RUNTIME_PACKAGES,
  TEST_PACKAGES,
} from '@frontdesk/infra';
import { repoRoot } from './paths.ts';

const log = (line: string) => console.log(`[bench] ${line}`);

ensureDebianPackages([...RUNTIME_PACKAGES, ...TEST_PACKAGES], log);
buildAppsIfStale(repoRoot, log);
const result = spawnSync(
  resolve(repoRoot, 'scripts/isolated'),
  ['npx', 'tsx', 'bench/src/run.ts', ...process.argv.slice(2)],
  { cwd: repoRoot, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
