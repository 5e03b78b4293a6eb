import type { Browser, Route } from 'playwright-core';
import { ms, type Section } from '../report.ts';
import { againstFloor, formatSpread, spread } from '../stats.ts';
import { newGuestContext } from './browser.ts';
import { OPEN_COMPANY_ID } from './page-weight.ts';

/** Chrome DevTools' "4× slowdown", a mid-range phone. */
const CPU_THROTTLE = 4;

/** What a visit loads as its document: the branded page as the API wrote it, or its floor. */
type Document = 'branded' | 'floor';

/**
 * The floor's document: `bytes` bytes of plain HTML with no script, no stylesheet and nothing
 * else to fetch, whose text paints at once. What any page of that size costs the browser.
 */
function staticPage(bytes: number): string {
  const head = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Floor</title>';
  const open = `${head}</head><body><p>`;
  const close = '</p></body></html>';
  const filler = Math.max(1, bytes - Buffer.byteLength(open + close));
  return `${open}${'floor '.repeat(Math.ceil(filler / 6)).slice(0, filler)}${close}`;
}

/**
 * Both kinds of visit take their document the same way: fetched from the API by Playwright and
 * handed to the page (so the floor pays the same server and the same hop), then either passed on
 * as it is or replaced by {@link staticPage} of the same byte size.
 */
async function serveDocument(route: Route, document: Document): Promise<number> {
  const response = await route.fetch();
  const body = await response.text();
  const bytes = Buffer.byteLength(body);
  await route.fulfill({
    status: response.status(),
    contentType: 'text/html; charset=utf-8',
    body: document === 'branded' ? body : staticPage(bytes),
  });
  return bytes;
}

type Visit = { paint: number; fcp: number; bytes: number };

/**
 * One cold visit: fresh context, throttled CPU, page open → painted. For the branded page, the
 * company's look painted: the first paint after the `frontdesk:branded` mark (set where the look
 * is applied, by the page the API serves or by the app), i.e. the later of the mark and the
 * page's first paint. For the floor, its first paint.
 */
async function visit(browser: Browser, url: string, document: Document): Promise<Visit> {
  const context = await newGuestContext(browser);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_THROTTLE });
    let bytes = 0;
    await page.route(
      (requested) => requested.href === url,
      async (route) => {
        bytes = await serveDocument(route, document);
      },
    );
    await page.goto(url);
    const mark = document === 'branded' ? 'frontdesk:branded' : 'first-paint';
    await page.waitForFunction(
      (name) =>
        performance.getEntriesByName(name).length > 0 &&
        performance.getEntriesByName('first-paint').length > 0,
      mark,
      { timeout: 30_000 },
    );
    // startTime counts from the navigation's start (timeOrigin), i.e. from page open.
    // (No helper function inside: the page would not know the bundler's name wrapper.)
    const [marked, firstPaint, fcp] = await page.evaluate(
      (names) => names.map((name) => performance.getEntriesByName(name)[0]?.startTime ?? NaN),
      [mark, 'first-paint', 'first-contentful-paint'],
    );
    return {
      paint: Math.max(marked ?? Number.NaN, firstPaint ?? Number.NaN),
      fcp: fcp ?? Number.NaN,
      bytes,
    };
  } finally {
    await context.close();
  }
}

/**
 * First branded paint over `runs` cold visits, each beside a visit of its floor (the order
 * alternating, so neither kind always follows the other), after one visit of each that warms
 * the server up. The spread is over `batches` stretches of the run.
 */
export async function measureBrandedPaint(
  browser: Browser,
  baseUrl: string,
  runs: number,
  batches: number,
): Promise<Section> {
  const url = `${baseUrl}/?company=${OPEN_COMPANY_ID}`;
  await visit(browser, url, 'branded');
  await visit(browser, url, 'floor');
  const samples: { branded: Visit; floor: Visit }[] = [];
  for (let i = 0; i < runs; i += 1) {
    const order: Document[] = i % 2 === 0 ? ['branded', 'floor'] : ['floor', 'branded'];
    const pair: Partial<Record<Document, Visit>> = {};
    for (const document of order) pair[document] = await visit(browser, url, document);
    samples.push(pair as { branded: Visit; floor: Visit });
  }
  const branded = spread(
    samples.map((s) => s.branded.paint),
    batches,
  );
  const floor = spread(
    samples.map((s) => s.floor.paint),
    batches,
  );
  const fcp = spread(
    samples.map((s) => s.branded.fcp),
    batches,
  );
  const bytes = samples[0]?.branded.bytes ?? 0;
  return {
    rows: [
      {
        figure: `First branded paint (CPU ${CPU_THROTTLE}× slower)`,
        measured: formatSpread(branded),
        floor: againstFloor(branded, floor),
        goal: 'p50 ≤ 250 ms',
        note:
          `${runs} cold visits, each beside a static HTML page of the same ${bytes} bytes from the ` +
          `same server; first contentful paint p50 ${ms(fcp.p50)}`,
      },
    ],
    data: { cpuThrottle: CPU_THROTTLE, documentBytes: bytes, branded, floor, fcp, samples },
  };
}
