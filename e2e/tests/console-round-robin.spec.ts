import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { COMPANY } from '../support/guest.ts';
import { AGENT, markAway, signIn, waitingGuest } from '../support/console.ts';

/**
 * Company 12 (round robin on) has two agents, Cy and Di, and an admin, Zoe, whom the admin
 * journeys leave signed in moments before (apps/api/src/db/seed.ts): she says away here.
 */
const CLOCK_SALES = 10;
const DI = 'di@frontdesk.demo';
/** The API's default `ROUND_ROBIN_OFFER_MS`: the stack runs with it. */
const OFFER_MS = 20_000;

test('round robin offers a new guest to one available agent, then to the other', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  await markAway('zoe@frontdesk.demo');
  const contexts = await Promise.all([browser.newContext(), browser.newContext()]);
  const [cy, di] = await Promise.all(contexts.map((context) => context.newPage()));
  if (!cy || !di) throw new Error('no page');
  await Promise.all([signIn(cy, AGENT.cy), signIn(di, DI)]);
  const guest = await waitingGuest(COMPANY.aroundTheClock, CLOCK_SALES);
  try {
    const row = (page: Page) =>
      page.locator(`[data-testid="queue-guest"][data-guest="${guest.nick}"]`);
    const offered = (page: Page) => row(page).getByText('Offered to you');
    // Both list the guest; exactly one is told it is theirs.
    await Promise.all([expect(row(cy)).toBeVisible(), expect(row(di)).toBeVisible()]);
    const offeredCount = async () =>
      (await Promise.all([cy, di].map((page) => row(page).getAttribute('data-offered')))).filter(
        (value) => value === 'true',
      ).length;
    await expect.poll(offeredCount).toBe(1);
    const first = (await row(cy).getAttribute('data-offered')) === 'true' ? cy : di;
    const second = first === cy ? di : cy;
    await expect(offered(first)).toBeVisible();
    await expect(offered(second)).toHaveCount(0);

    // Unanswered, the offer moves on to the other agent after its turn.
    await expect(offered(second)).toBeVisible({ timeout: OFFER_MS + 10_000 });
    await expect(offered(first)).toHaveCount(0);
    // Anyone may still accept: the agent it is not offered to takes it.
    await row(first)
      .getByRole('button', { name: /^Accept/ })
      .click();
    await expect(first.getByTestId('call-screen')).toBeVisible();
    await first.getByRole('button', { name: 'End call' }).click();
  } finally {
    await guest.leave();
    await Promise.all(contexts.map((context) => context.close()));
  }
});
