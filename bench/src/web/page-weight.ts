import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { kb, type Section } from '../report.ts';
import { repoRoot } from '../paths.ts';
import { newGuestContext } from './browser.ts';

/** The seeded company that is open around the clock (apps/api/src/db/seed.ts). */
export const OPEN_COMPANY_ID = 12;

/**
 * Text that gives the call code away: janus.js's own `Janus.useDefaultDependencies`, StanzaJS its
 * XMPP namespaces. Not the videoroom plugin's name: @frontdesk/protocol's Janus gate schemas
 * (media-gate.ts, in the page's main chunk) name it too. The bundler names chunks after their
 * folders (`src-…`), not their packages.
 */
const CALL_CODE = /useDefaultDependencies|urn:xmpp:/;

const gzipSize = (body: Buffer) => gzipSync(body).length;

/** Waits until the guest page has left its loading stage and names the stage it settled on. */
async function firstStage(page: Page): Promise<string> {
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid=guest-page]')?.getAttribute('data-stage') !== 'loading',
    null,
    { timeout: 30_000 },
  );
  return (await page.getByTestId('guest-page').getAttribute('data-stage')) ?? 'unknown';
}

/**
 * Guest page weight before a call: every JS and CSS response of `/?company=12` until the page
 * settles on its first stage and the network is idle, each gzipped here (level 6, what a
 * server or CDN would send: ours serves uncompressed), and the call-code chunks among them.
 */
export async function measurePageWeight(browser: Browser, baseUrl: string): Promise<Section> {
  const context = await newGuestContext(browser);
  const page = await context.newPage();
  const pending: Promise<{ name: string; raw: number; gz: number }>[] = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    pending.push(
      response.body().then((body) => ({
        name: basename(new URL(response.url()).pathname),
        raw: body.length,
        gz: gzipSize(body),
      })),
    );
  });
  await page.goto(`${baseUrl}/?company=${OPEN_COMPANY_ID}`);
  const stage = await firstStage(page);
  await page.waitForLoadState('networkidle');
  const assets = await Promise.all(pending);
  await context.close();

  const loaded = new Set(assets.map((asset) => asset.name));
  const dist = join(repoRoot, 'apps/guest/dist');
  const distAssets = join(dist, 'assets');
  // What index.html names (its module, preloads and stylesheet: scripts/budgets.mjs's first row)
  // against the chunks the page fetched once it ran (the identity and bot checks, and any stage's
  // chunk fetched ahead).
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const fromHtml = new Set(
    [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.(?:js|css))"/g)].map((match) => match[1]),
  );
  const later = assets.filter((asset) => !fromHtml.has(asset.name));
  const sumGz = (list: readonly { gz: number }[]) => list.reduce((sum, each) => sum + each.gz, 0);
  const callChunks = readdirSync(distAssets)
    .filter((name) => name.endsWith('.js'))
    .map((name) => ({ name, body: readFileSync(join(distAssets, name)) }))
    .filter(({ body }) => CALL_CODE.test(body.toString()))
    .map(({ name, body }) => ({ name, gz: gzipSize(body), loadedBeforeCall: loaded.has(name) }));
  const totalGz = sumGz(assets);
  const callGzLoaded = sumGz(callChunks.filter((chunk) => chunk.loadedBeforeCall));
  const callNote =
    callChunks.length === 0
      ? 'no chunk of the build holds janus.js or StanzaJS'
      : `call chunks in the build: ${callChunks.map((c) => `${c.name} ${kb(c.gz)}`).join(', ')}`;
  return {
    rows: [
      {
        figure: 'Guest page weight (JS+CSS, gz)',
        measured: kb(totalGz),
        goal: '≤ 100 KB',
        note:
          `${assets.length} files until stage "${stage}": index.html's ` +
          `${kb(totalGz - sumGz(later))}, then ${later.map((a) => `${a.name} ${kb(a.gz)}`).join(', ')}`,
      },
      {
        figure: 'Call code loaded before a call',
        measured: kb(callGzLoaded),
        goal: '0 (lazy)',
        note: callNote,
      },
    ],
    data: { stage, totalGz, assets, callChunks },
  };
}
