// Part of `npm run lint`: the guest's weight budgets, on the built app (built first when stale).
// The page a visitor opens before any call must stay small on a phone's network, and the embed
// loader goes on every page of a company's site.
import { readFileSync } from 'node:fs';
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

const BUDGETS = [
  { name: 'guest page before a call (JS+CSS)', files: precallFiles, limitKb: 140 },
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
