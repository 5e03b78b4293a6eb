// Part of `npm run lint`: the guest's weight budgets, on the built app (built first when stale).
// The page a visitor opens before any call must stay small on a phone's network, and the embed
// loader goes on every page of a company's site.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildAppsIfStale } from '../build-apps.ts';

const repoRoot = resolve(import.meta.dirname, '../../..');
const dist = join(repoRoot, 'apps/guest/dist');
const log = (line: string) => console.log(`[budgets] ${line}`);

/** gzip level 6, what a server or CDN would send. */
const gzippedKb = (file: string) => gzipSync(readFileSync(file)).length / 1024;

/**
 * The guest page's own JS and CSS: what index.html loads before the app runs (its module,
 * the chunks it preloads, its stylesheet). The call code (janus.js, StanzaJS) and every
 * stage's lazy chunk come later, and the benchmark weighs the whole visit.
 */
function precallFiles(): string[] {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  return [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((match) =>
    join(dist, match[1] ?? ''),
  );
}

/**
 * The lazy chunks whose hidden source map names a package under node_modules: the bundler names
 * chunks after folders, not packages. They import only from the pre-call files.
 */
function chunksOf(pkg: string): string[] {
  const assets = join(dist, 'assets');
  const files = readdirSync(assets)
    .filter((name) => name.endsWith('.js'))
    .map((name) => join(assets, name))
    // Chunks without code of their own (re-exports, the bundler's runtime) have no map.
    .filter(
      (file) =>
        existsSync(`${file}.map`) &&
        readFileSync(`${file}.map`, 'utf8').includes(`/node_modules/${pkg}/`),
    );
  if (files.length === 0) throw new Error(`no chunk of the guest build holds ${pkg}`);
  return files;
}

/**
 * What the benchmark weighs (docs/performance.md, "Guest page weight"): every visit also runs
 * its identity and bot checks (FingerprintJS, botd) before its first screen.
 */
const visitFiles = () => [
  ...precallFiles(),
  ...chunksOf('@fingerprintjs/fingerprintjs'),
  ...chunksOf('@fingerprintjs/botd'),
];

const BUDGETS = [
  { name: 'guest page before a call (JS+CSS)', files: precallFiles, limitKb: 128 },
  // Also with error reporting on (`GET /api/config` names a DSN): its SDK loads only with the
  // page's first error or with a call (decision 0042).
  { name: 'with the identity and bot checks', files: visitFiles, limitKb: 147 },
  {
    name: "error reporting's SDK (at the first error or the call)",
    files: () => chunksOf('@sentry/core'),
    limitKb: 87,
  },
  { name: 'embed loader', files: () => [join(dist, 'embed.js')], limitKb: 10 },
];

buildAppsIfStale(repoRoot, log);
let over = 0;
for (const budget of BUDGETS) {
  const kb = budget.files().reduce((sum, file) => sum + gzippedKb(file), 0);
  const verdict = kb <= budget.limitKb ? 'ok' : 'OVER BUDGET';
  log(`${budget.name}: ${kb.toFixed(1)} KB gz of ${budget.limitKb} KB — ${verdict}`);
  if (kb > budget.limitKb) over += 1;
}
process.exit(over === 0 ? 0 : 1);
