import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { AGENT, agentPage } from '../support/console.ts';
import { queryRows } from '../support/db.ts';
import { COMPANY, inspectScreen, openGuest, walkToWaiting } from '../support/guest.ts';

/** From the preview of a company without a welcome form to pressing "Start the call". */
async function startCallFromPreview(page: Page, companyId: number) {
  await openGuest(page, companyId, 'preview');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'selection');
  await page.getByRole('button', { name: 'Start the call' }).click();
}

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

test('journey 5: a company out of its monthly quota refuses the call', async ({ page }) => {
  await startCallFromPreview(page, COMPANY.outOfQuota);
  await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'outOfQuota');
  await expect(
    page.getByRole('heading', { name: 'We cannot take more calls this month' }),
  ).toBeVisible();
  await inspectScreen(page, 'guest-outOfQuota');
  const [report] = await queryRows<{ status: string }>(
    'select status from call_reports where company_id = $1 order by id desc limit 1',
    [COMPANY.outOfQuota],
  );
  expect(report?.status).toBe('outOfQuota');
});

test('journey 5: a guest the company blocked cannot start a call', async ({ page }) => {
  await openGuest(page, COMPANY.blockList, 'preview');
  // The company's admin blocks this browser's fingerprint (what block lists match).
  const [guest] = await queryRows<{ fingerprint: string }>(
    'select fingerprint from guests where company_id = $1 order by id desc limit 1',
    [COMPANY.blockList],
  );
  await queryRows(
    'insert into guest_blocks (company_id, fingerprint, reason) values ($1, $2, $3)',
    [COMPANY.blockList, guest?.fingerprint, 'e2e journey 5'],
  );
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Start the call' }).click();
  await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'blocked');
  await inspectScreen(page, 'guest-blocked');
});
