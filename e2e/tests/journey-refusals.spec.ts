import type { Page } from '@playwright/test';
import { adminRoutes, routes } from '@frontdesk/protocol';
import { expect, test } from '../support/fixtures.ts';
import { AGENT, agentPage, api } from '../support/console.ts';
import { queryRows } from '../support/db.ts';
import {
  COMPANY,
  inspectScreen,
  openGuest,
  pageRefusingCamera,
  walkToWaiting,
} from '../support/guest.ts';

test('journey 4: a guest who leaves while waiting is abandoned in the reports and leaves the queue', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(120_000);
  const agent = await agentPage(browser, AGENT.cy);
  try {
    await walkToWaiting(guest, {
      categoryTestId: 'category-10',
      callType: 'Voice call',
      name: 'Walter Waits',
    });
    const row = agent.getByTestId('queue-guest').filter({ hasText: 'Walter Waits' });
    await expect(row).toBeVisible();

    await guest.getByRole('button', { name: 'Cancel the call' }).click();
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'abandoned');
    await expect(guest.getByRole('heading', { name: 'You left the queue' })).toBeFocused();
    await expect(row).toHaveCount(0);

    const [report] = await queryRows<{ end_reason: string | null; answered_at: Date | null }>(
      `select end_reason, answered_at from call_reports
        where company_id = 12 and category_id = 10 order by id desc limit 1`,
    );
    expect(report).toEqual({ end_reason: 'abandoned', answered_at: null });
  } finally {
    await agent.context().close();
  }
});

/** Counts the page's requests for the camera or microphone (`window.mediaRequests`). */
async function countMediaRequests(page: Page) {
  await page.addInitScript(() => {
    const counted = window as typeof window & { mediaRequests: number };
    counted.mediaRequests = 0;
    const ask = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = (constraints) => {
      counted.mediaRequests += 1;
      return ask(constraints);
    };
  });
  return () =>
    page.evaluate(() => (window as typeof window & { mediaRequests: number }).mediaRequests);
}

test('journey 5: a company out of its monthly quota says so before asking for the camera', async ({
  page,
}) => {
  const mediaRequests = await countMediaRequests(page);
  // The company shows a camera check, which the guest never reaches.
  await openGuest(page, COMPANY.outOfQuota, 'outOfQuota');
  await expect(
    page.getByRole('heading', { name: 'We cannot take more calls this month' }),
  ).toBeFocused();
  expect(await mediaRequests()).toBe(0);
  await inspectScreen(page, 'guest-outOfQuota');
  // Asking is not calling: nothing counts against the company.
  const reports = await queryRows<{ count: string }>(
    'select count(*) from call_reports where company_id = $1',
    [COMPANY.outOfQuota],
  );
  expect(reports[0]?.count).toBe('0');
});

/**
 * The company's admin blocks the browser of the guest who visited last (block lists match the
 * browser's fingerprint). Answers the unblock.
 */
async function blockLatestGuest(reason: string) {
  const [guest] = await queryRows<{ fingerprint: string }>(
    'select fingerprint from guests where company_id = $1 order by id desc limit 1',
    [COMPANY.blockList],
  );
  await queryRows(
    'insert into guest_blocks (company_id, fingerprint, reason) values ($1, $2, $3) on conflict do nothing',
    [COMPANY.blockList, guest?.fingerprint, reason],
  );
  return () =>
    queryRows('delete from guest_blocks where company_id = $1 and fingerprint = $2', [
      COMPANY.blockList,
      guest?.fingerprint,
    ]);
}

test('journey 5: a browser on the block list is told so before the camera, on its next visit', async ({
  page,
}) => {
  await openGuest(page, COMPANY.blockList, 'preview');
  const unblock = await blockLatestGuest('e2e journey 5, next visit');
  const mediaRequests = await countMediaRequests(page);
  await page.reload();
  await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'blocked');
  expect(await mediaRequests()).toBe(0);
  await unblock();
});

test('journey 5: a guest the company blocked cannot start a call', async ({ page }) => {
  await openGuest(page, COMPANY.blockList, 'preview');
  // Blocked while choosing: call-report/add refuses the call.
  await blockLatestGuest('e2e journey 5');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Start the call' }).click();
  await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'blocked');
  await inspectScreen(page, 'guest-blocked');
});

/** Sets company 12's preview screen through its admin's API; answers the undo. */
async function setPreviewScreen(previewScreen: boolean) {
  const params = { id: String(COMPANY.aroundTheClock) };
  const login = await api(routes.staffLogin, {
    body: { email: 'zoe@frontdesk.demo', password: 'frontdesk-demo' },
  });
  if (!('access_token' in login.data)) throw new Error('zoe must choose a password first');
  const token = login.data.access_token;
  const update = async (value: boolean) => {
    const { data: now } = await api(routes.company, { params });
    await api(adminRoutes.updateCompany, {
      params,
      body: { previewScreen: value },
      token,
      ifMatch: now.version,
    });
  };
  const { data: before } = await api(routes.company, { params });
  await update(previewScreen);
  return () => update(before.previewScreen);
}

test('a company without a preview screen: a camera refused as the call starts says so and offers a voice call', async ({
  playwright,
  launchOptions,
  baseURL,
  userAgent,
  viewport,
}) => {
  test.setTimeout(120_000);
  const restore = await setPreviewScreen(false);
  // The guest blocks the camera in the browser's prompt and allows the microphone.
  const { page, close } = await pageRefusingCamera(playwright, launchOptions, {
    baseURL,
    userAgent,
    viewport,
  });
  try {
    await openGuest(page, COMPANY.aroundTheClock, 'welcome');
    await page.getByLabel(/Your name/).fill('Nina No-Preview');
    await page.getByLabel(/E-mail/).fill('nina@example.org');
    await page.getByLabel(/What is it about/).selectOption('existing-order');
    await page.getByRole('button', { name: 'Start' }).click();
    // No camera check: the camera is first asked for when the call starts.
    await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'selection');
    await page.getByTestId('category-10').click();
    await page.getByLabel('Video call').check();
    await page.getByRole('button', { name: 'Start the call' }).click();
    await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'unsupported');
    await expect(page.getByRole('heading', { name: 'We cannot use your camera' })).toBeFocused();
    await expect(page.getByText('This browser cannot make calls')).toHaveCount(0);
    const voice = page.getByRole('button', { name: 'Make a voice call instead' });
    await expect(voice).toBeInViewport();
    await inspectScreen(page, 'guest-camera-refused-no-preview');
    // The call that could not start is over (left before any agent answered).
    const calls = () =>
      queryRows<{ call_type: string | null; end_reason: string | null }>(
        `select r.call_type, r.end_reason from call_reports r join form_submissions f
           on f.guest_id = r.guest_id
          where r.company_id = $1 and f.answers->>'name' = $2 order by r.id`,
        [COMPANY.aroundTheClock, 'Nina No-Preview'],
      );
    await expect.poll(calls).toEqual([{ call_type: 'video', end_reason: 'abandoned' }]);

    await voice.click();
    await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'selection');
    await expect(page.getByLabel('Video call')).toHaveCount(0);
    await page.getByTestId('category-10').click();
    await page.getByRole('button', { name: 'Start the call' }).click();
    await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'waiting');
    await expect
      .poll(async () => (await calls()).map((call) => call.call_type))
      .toEqual(['video', 'voice']);
    await page.getByRole('button', { name: 'Cancel the call' }).click();
    await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'abandoned');
  } finally {
    await close();
    await restore();
  }
});
