import type { Browser } from 'playwright-core';
import { ms, type Section } from '../report.ts';
import { summarize } from '../stats.ts';
import { newGuestContext } from './browser.ts';
import { OPEN_COMPANY_ID } from './page-weight.ts';

/** Chrome DevTools' "4× slowdown", a mid-range phone. */
const CPU_THROTTLE = 4;

/**
 * One cold visit: fresh context, throttled CPU, page open → the company's look painted: the
 * first paint after the `frontdesk:branded` mark (set where the look is applied, by the page the
 * API serves or by the app), i.e. the later of the mark and the page's first paint.
 */
async function visit(browser: Browser, url: string): Promise<{ branded: number; fcp: number }> {
  const context = await newGuestContext(browser);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_THROTTLE });
    await page.goto(url);
    await page.waitForFunction(
      () =>
        performance.getEntriesByName('frontdesk:branded').length > 0 &&
        performance.getEntriesByName('first-paint').length > 0,
      null,
      { timeout: 30_000 },
    );
    // startTime counts from the navigation's start (timeOrigin), i.e. from page open.
    // (No helper function inside: the page would not know the bundler's name wrapper.)
    const [mark, firstPaint, fcp] = await page.evaluate(() =>
      ['frontdesk:branded', 'first-paint', 'first-contentful-paint'].map(
        (name) => performance.getEntriesByName(name)[0]?.startTime ?? Number.NaN,
      ),
    );
    return {
      branded: Math.max(mark ?? Number.NaN, firstPaint ?? Number.NaN),
      fcp: fcp ?? Number.NaN,
    };
  } finally {
    await context.close();
  }
}

/** First branded paint over `runs` cold visits, after one visit that warms the server up. */
export async function measureBrandedPaint(
  browser: Browser,
  baseUrl: string,
  runs: number,
): Promise<Section> {
  const url = `${baseUrl}/?company=${OPEN_COMPANY_ID}`;
  await visit(browser, url);
  const samples: { branded: number; fcp: number }[] = [];
  for (let i = 0; i < runs; i += 1) samples.push(await visit(browser, url));
  const branded = summarize(samples.map((s) => s.branded));
  const fcp = summarize(samples.map((s) => s.fcp));
  return {
    rows: [
      {
        figure: `First branded paint (CPU ${CPU_THROTTLE}× slower)`,
        measured: `p50 ${ms(branded.p50)}, p95 ${ms(branded.p95)}`,
        goal: 'p50 ≤ 1000 ms',
        note: `${runs} cold visits; first contentful paint p50 ${ms(fcp.p50)}`,
      },
    ],
    data: { cpuThrottle: CPU_THROTTLE, branded, firstContentfulPaint: fcp, samples },
  };
}
