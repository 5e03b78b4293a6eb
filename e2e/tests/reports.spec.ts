import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { REPORT_CSV_COLUMNS } from '@frontdesk/protocol';
import { expect, test } from '../support/fixtures.ts';
import { AGENT, agentPage, signIn } from '../support/console.ts';
import { queryRows } from '../support/db.ts';
import { expectMovingVideo, inspectScreen, walkToWaiting } from '../support/guest.ts';

/** Company 12's admin (apps/api/src/db/seed.ts DEMO_LOGINS); company 12 records its calls. */
const ZOE = 'zoe@frontdesk.demo';

/** The number a figure card shows. */
async function figureValue(page: Page, testId: string): Promise<number> {
  const text = await page.getByTestId(testId).locator('.figure-value').textContent();
  return Number(text?.replace(/,/g, ''));
}

/** Looks at a reports page as a person and a screen reader would, on a desktop and a phone. */
async function inspectBothWidths(page: Page, name: string) {
  await inspectScreen(page, `${name}-desktop`);
  await page.setViewportSize({ width: 390, height: 844 });
  await inspectScreen(page, `${name}-phone`);
  await page.setViewportSize({ width: 1366, height: 900 });
}

/** The film's clock once it has settled after a seek. */
function seekTo(video: Locator, seconds: number) {
  return video.evaluate(
    (element: HTMLVideoElement, target) =>
      new Promise<number>((resolve) => {
        element.addEventListener('seeked', () => resolve(element.currentTime), { once: true });
        element.currentTime = target;
      }),
    seconds,
  );
}

test('issue 17: a recorded call ends; its admin sees it counted, plays and seeks its recording, and downloads the CSV', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(240_000);
  const agent = await agentPage(browser, AGENT.cy);
  const admin = await (
    await browser.newContext({ viewport: { width: 1366, height: 900 } })
  ).newPage();
  try {
    // The admin opens Reports from the console's header before the call; she is away, so the
    // call is not offered to her.
    await signIn(admin, ZOE);
    await admin.getByLabel('Availability').selectOption('away');
    await admin.getByRole('link', { name: 'Reports' }).click();
    // A fresh stack has no calls yet: the page says so instead of showing zeros.
    const empty = admin.getByTestId('figures-empty');
    await expect(admin.getByTestId('figure-answered').or(empty)).toBeVisible();
    const answeredBefore = (await empty.isVisible())
      ? 0
      : await figureValue(admin, 'figure-answered');

    await walkToWaiting(guest, {
      categoryTestId: 'category-11',
      callType: 'Video call',
      name: 'Rita Reports',
    });
    await agent
      .getByTestId('queue-guest')
      .filter({ hasText: 'Rita Reports' })
      .getByRole('button', { name: /^Accept/ })
      .click();
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
    await expectMovingVideo(guest, 'remote-video');
    await expectMovingVideo(agent, 'remote-video');
    // A few seconds of film, so there is somewhere to seek to.
    await guest.waitForTimeout(6_000);
    await agent.getByRole('button', { name: 'End call' }).click();
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'rating');
    await guest.getByRole('radio', { name: '4 / 5' }).check();
    await guest.getByLabel(/Did we solve your problem/).selectOption('yes');
    await guest.getByRole('button', { name: 'Send rating' }).click();
    await expect(guest.getByTestId('stage-thanks')).toBeVisible();

    const [report] = await queryRows<{ call_id: string }>(
      `select call_id from call_reports
        where company_id = 12 and status = 'ok' and answered_at is not null
        order by id desc limit 1`,
    );
    const callId = String(report?.call_id);

    // The figures count it, once opened again (the console keeps its session in memory only:
    // the admin goes there through its nav, not a reload).
    const nav = admin.getByRole('navigation', { name: 'Reports' });
    await nav.getByRole('link', { name: 'Calls' }).click();
    await nav.getByRole('link', { name: 'Figures' }).click();
    await expect
      .poll(() => figureValue(admin, 'figure-answered'), { timeout: 15_000 })
      .toBe(answeredBefore + 1);
    await inspectBothWidths(admin, 'reports-figures');

    // The answered figure leads to the calls behind it, this one among them.
    await admin.getByTestId('figure-answered').getByRole('link').click();
    await expect(admin).toHaveURL(/\/console\/reports\/calls\?.*outcome=answered/);
    const row = admin.getByTestId('call-row').filter({
      has: admin.locator(`a[href="/console/reports/calls/${encodeURIComponent(callId)}"]`),
    });
    await expect(row).toBeVisible();
    await expect(row).toContainText('Cy Agent');
    await expect(row).toContainText('4 of 5');
    await inspectBothWidths(admin, 'reports-calls');

    // The CSV has one row per call, this one with its id.
    const [download] = await Promise.all([
      admin.waitForEvent('download'),
      admin.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      /^calls-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    const csv = readFileSync(await download.path(), 'utf8');
    const [header, ...rows] = csv.trim().split(/\r?\n/);
    expect(header).toBe(REPORT_CSV_COLUMNS.join(','));
    expect(rows.some((line) => line.includes(callId))).toBe(true);
    await expect(admin.getByText(/^Saved as calls-/)).toBeVisible();

    // The call's page plays the recording once merged (it follows the merge by itself), and
    // seeks in it: the film is served in ranges.
    await row.getByRole('link').first().click();
    await expect(admin.getByRole('heading', { name: `Call ${callId}` })).toBeVisible();
    await expect(admin.getByTestId('call-timeline')).toContainText('Answered · Cy Agent');
    const video = admin.getByTestId('recording-video');
    await expect(video).toBeVisible({ timeout: 120_000 });
    await expect(video).toHaveAttribute('src', /signature=/);
    await inspectBothWidths(admin, 'reports-call');

    await video.evaluate(async (element: HTMLVideoElement) => {
      // Muted, a film may play without a click (the browser's autoplay rule).
      element.muted = true;
      await element.play();
    });
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime))
      .toBeGreaterThan(1);
    await video.evaluate((element: HTMLVideoElement) => element.pause());
    const duration = await video.evaluate((element: HTMLVideoElement) => element.duration);
    expect(duration).toBeGreaterThan(4);
    const target = Math.floor(duration) - 1;
    expect(await seekTo(video, target)).toBeCloseTo(target, 0);
    // It holds there: a server without ranges would send the player back to the start.
    await admin.waitForTimeout(1_000);
    expect(await video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeCloseTo(
      target,
      0,
    );
    expect(await seekTo(video, 1)).toBeCloseTo(1, 0);
  } finally {
    await agent.context().close();
    await admin.context().close();
  }
});
