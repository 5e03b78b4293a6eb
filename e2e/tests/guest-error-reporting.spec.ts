import type { Page, Request } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { callInProgress } from '../support/console.ts';
import { COMPANY, openGuest } from '../support/guest.ts';

/*
 * Browser error reporting loads on demand (decision 0042): before a call the page holds its
 * errors in a few listeners, and the SDK comes with the first error or with the call. The e2e
 * stack runs without SENTRY_DSN, so each page here is told a DSN by its `GET /api/config`, and
 * what it sends to the tunnel is kept instead of reaching the API (whose tunnel
 * apps/api/test/monitoring.test.ts proves).
 */

const SDK_CHUNK = /\/assets\/sentry-[^/]*\.js$/;

/** The page's error reports, as the item types of each envelope it posts to the tunnel. */
async function reportingOn(page: Page) {
  const envelopes: string[][] = [];
  const sdkRequests: Request[] = [];
  page.on('request', (request) => {
    if (SDK_CHUNK.test(request.url())) sdkRequests.push(request);
  });
  await page.route('**/api/config', async (route) => {
    const { data } = (await (await route.fetch()).json()) as { data: Record<string, unknown> };
    // Not `response`: its headers would keep the shorter body's length.
    await route.fulfill({
      json: {
        data: {
          ...data,
          errorReporting: { dsn: 'http://publickey@127.0.0.1:9/1', tunnel: '/api/monitoring' },
        },
      },
    });
  });
  await page.route('**/api/monitoring', async (route) => {
    // An envelope: one JSON line of headers, then per item a JSON line of headers starting
    // with its type, and its payload.
    const lines = (route.request().postDataBuffer() ?? Buffer.alloc(0)).toString('latin1');
    envelopes.push([...lines.matchAll(/^\{"type":"(\w+)"/gm)].map((match) => match[1] ?? ''));
    await route.fulfill({ status: 200, body: '' });
  });
  return { sdkRequests, itemTypes: () => envelopes.flat() };
}

/** An uncaught error, as the page's own code would throw it. */
const throwOnPage = (page: Page, message: string) =>
  page.evaluate((text) => {
    setTimeout(() => {
      throw new Error(text);
    });
  }, message);

test('a guest page before a call loads no error-reporting SDK, yet its first error reaches the tunnel', async ({
  page,
}) => {
  const reporting = await reportingOn(page);
  await openGuest(page, COMPANY.aroundTheClock, 'welcome');
  await page.waitForLoadState('networkidle');
  expect(reporting.sdkRequests).toEqual([]);

  await throwOnPage(page, 'an error on the welcome form');
  await expect.poll(reporting.itemTypes).toContain('event');
  expect(reporting.sdkRequests).toHaveLength(1);
});

test('a call loads the SDK: its trace and, with an error, its replay reach the tunnel', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const reporting = await reportingOn(page);
  const agent = await callInProgress(page, browser, 'Rhea Reporting');
  try {
    expect(reporting.sdkRequests).toHaveLength(1);
    await throwOnPage(page, 'an error in the call');
    await expect.poll(reporting.itemTypes, { timeout: 30_000 }).toContain('event');
    // A replay with the error, and the page's trace: this SDK sends its spans as `span` items.
    await expect.poll(reporting.itemTypes, { timeout: 30_000 }).toContain('replay_recording');
    await expect.poll(reporting.itemTypes, { timeout: 30_000 }).toContain('span');
    await agent.getByRole('button', { name: 'End call' }).click();
    await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'rating');
  } finally {
    await agent.context().close();
  }
});
