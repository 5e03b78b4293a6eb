import type { Page, Request } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { callInProgress, changeCompanySettings } from '../support/console.ts';
import { COMPANY, openGuest } from '../support/guest.ts';

/*
 * Browser error reporting loads on demand (decision 0042): before a call the page holds its
 * errors in a few listeners, and the SDK comes with the first error or with the call. The e2e
 * stack runs without SENTRY_DSN, so each page here is told a DSN by its `GET /api/config`, and
 * what it sends to the tunnel is kept instead of reaching the API (whose tunnel
 * apps/api/test/monitoring.test.ts proves).
 */

const SDK_CHUNK = /\/assets\/sentry-[^/]*\.js$/;

/**
 * The page's error reports: the item types of each envelope it posts to the tunnel, and the
 * envelopes' text.
 */
async function reportingOn(page: Page) {
  const envelopes: string[][] = [];
  const bodies: string[] = [];
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
    bodies.push(lines);
    envelopes.push([...lines.matchAll(/^\{"type":"(\w+)"/gm)].map((match) => match[1] ?? ''));
    await route.fulfill({ status: 200, body: '' });
  });
  return {
    sdkRequests,
    itemTypes: () => envelopes.flat(),
    /** Whether an envelope posted so far names `text` (an error's message). */
    sent: (text: string) => bodies.some((body) => body.includes(text)),
  };
}

/**
 * An uncaught error, as the page's own code would throw it; resolves once the page's `error`
 * listeners have had it (timers of one delay run in order, each in a task of its own).
 */
const throwOnPage = (page: Page, message: string) =>
  page.evaluate(
    (text) =>
      new Promise<void>((thrown) => {
        setTimeout(() => {
          throw new Error(text);
        });
        setTimeout(thrown);
      }),
    message,
  );

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

/*
 * docs/privacy.md: where the company asks for consent (decision 0030), nothing about the guest
 * leaves the page before it, error reports included: the page holds its errors until the guest
 * agrees, and drops them when the guest declines.
 */
test.describe('a company that asks for consent', () => {
  const company = COMPANY.voiceLine;
  const changeSettings = (consentRequired: true | null) =>
    changeCompanySettings('val@frontdesk.demo', company, { consentRequired });
  test.beforeAll(() => changeSettings(true));
  test.afterAll(() => changeSettings(null));

  test('an error thrown on the consent step reaches the tunnel only once the guest agrees', async ({
    page,
  }) => {
    const reporting = await reportingOn(page);
    await openGuest(page, company, 'consent');
    await page.waitForLoadState('networkidle');
    await throwOnPage(page, 'an error on the consent step');
    await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'consent');
    expect(reporting.sdkRequests).toEqual([]);
    expect(reporting.itemTypes()).toEqual([]);

    await page.getByRole('button', { name: 'I agree, continue' }).click();
    await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'preview');
    await expect.poll(() => reporting.sent('an error on the consent step')).toBe(true);
    expect(reporting.itemTypes()).toContain('event');
    expect(reporting.sdkRequests).toHaveLength(1);
  });

  test('an error thrown before a decline never reaches the tunnel', async ({ page }) => {
    const reporting = await reportingOn(page);
    await openGuest(page, company, 'consent');
    await throwOnPage(page, 'an error before the decline');
    await page.getByRole('button', { name: 'No, thanks' }).click();
    await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'consentDeclined');
    await throwOnPage(page, 'an error after the decline');
    expect(reporting.sdkRequests).toEqual([]);

    // The guest changes its mind and agrees: only what happens from then on is reported.
    await page.getByRole('button', { name: 'I changed my mind' }).click();
    await page.getByRole('button', { name: 'I agree, continue' }).click();
    await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'preview');
    await throwOnPage(page, 'an error after consenting');
    await expect.poll(() => reporting.sent('an error after consenting')).toBe(true);
    expect(reporting.sent('an error before the decline')).toBe(false);
    expect(reporting.sent('an error after the decline')).toBe(false);
  });
});
