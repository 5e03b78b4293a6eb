import { spawnSync } from 'node:child_process';
import {
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * Newest modification time of any file below `path` (or of `path` itself). Folders' own times
 * do not count: swapping a fresh build in touches the app's folder after its files are written.
 */
export function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => {
    if (entry === 'node_modules' || entry.startsWith('dist')) return newest;
    return Math.max(newest, newestMtime(join(path, entry)));
  }, 0);
}

/** Text formats worth compressing; images other than SVG and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml|wasm)$/;

/**
 * Writes a `.br` (quality 11) and a `.gz` (level 9) beside every compressible file of a built
 * app, once, at build time: the API serves them as they are (`preCompressed` in
 * apps/api/src/plugins/gateway.ts), so no request pays for compression and the strongest levels
 * cost nothing at run time. Files under 1 KiB, and variants that would save under a tenth, are
 * left out (the static server then sends the file itself). Source maps are never served.
 */
export function precompress(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      precompress(path);
      continue;
    }
    if (!COMPRESSIBLE.test(entry.name)) continue;
    const content = readFileSync(path);
    if (content.length < 1024) continue;
    const variants = {
      br: brotliCompressSync(content, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
      gz: gzipSync(content, { level: 9 }),
    };
    for (const [extension, compressed] of Object.entries(variants)) {
      if (compressed.length <= content.length * 0.9) {
        writeFileSync(`${path}.${extension}`, compressed);
      }
    }
  }
}

/**
 * Builds the browser apps (guest, console) when their build is missing or older than any
 * source they are made from, so a second start skips the build.
 */
export function buildAppsIfStale(repoRoot: string, log: (line: string) => void): void {
  const sharedSources = [
    'packages/protocol',
    'packages/chat',
    'packages/media',
    'packages/messages',
    'build',
  ].map((p) => newestMtime(join(repoRoot, p)));
  // How the apps are built counts too: a change here (precompression, say) rebuilds them.
  sharedSources.push(newestMtime(import.meta.filename));
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
    precompress(next);
    rmSync(join(repoRoot, app, 'dist'), { recursive: true, force: true });
    renameSync(next, join(repoRoot, app, 'dist'));
  }
}
