import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Newest modification time of any file below `path` (or of `path` itself). Folders' own times
 * do not count: swapping a fresh build in touches the app's folder after its files are written.
 */
function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => {
    if (entry === 'node_modules' || entry.startsWith('dist')) return newest;
    return Math.max(newest, newestMtime(join(path, entry)));
  }, 0);
}

/**
 * Builds the browser apps (guest, console) when their build is missing or older than any
 * source they are made from, so a second start skips the build.
 */
export function buildAppsIfStale(repoRoot: string, log: (line: string) => void): void {
  const sharedSources = ['packages/protocol', 'packages/chat', 'packages/media'].map((p) =>
    newestMtime(join(repoRoot, p)),
  );
  for (const app of ['apps/guest', 'apps/console']) {
    const built = join(repoRoot, app, 'dist', 'index.html');
    const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
    const sourcesAt = Math.max(newestMtime(join(repoRoot, app)), ...sharedSources);
    if (builtAt >= sourcesAt) continue;
    log(`Building ${app}…`);
    // Build beside the live folder and swap it in, so a running server never serves a half-built app.
    const next = join(repoRoot, app, 'dist-next');
    const result = spawnSync(
      'npx',
      ['vite', 'build', '--logLevel', 'warn', '--outDir', next, '--emptyOutDir'],
      {
        cwd: join(repoRoot, app),
        stdio: 'inherit',
      },
    );
    if (result.status !== 0) throw new Error(`Building ${app} failed (see above).`);
    rmSync(join(repoRoot, app, 'dist'), { recursive: true, force: true });
    renameSync(next, join(repoRoot, app, 'dist'));
  }
}
