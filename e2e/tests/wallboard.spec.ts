import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { inspectScreen, walkToWaiting } from '../support/guest.ts';
import { AGENT, signIn } from '../support/console.ts';

/** Company 12's admin (apps/api/src/db/seed.ts DEMO_LOGINS). */
const ZOE = 'zoe@frontdesk.demo';
const DEMO_PASSWORD = 'frontdesk-demo';
/** Issue 17: the board follows a change within 2 s, pushed (its safety refresh is 30 s). */
const PUSHED = { timeout: 2_000 };

/** Zoe signs in at the wallboard's address, which opens once she has. */
async function openWallboard(page: Page) {
  await page.goto('/console/reports/wallboard');
  await page.getByLabel('E-mail').fill(ZOE);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('wallboard-waiting')).toBeVisible();
}

test('the wallboard shows a new guest and the claim that takes it within 2 s, without a reload', async ({
  browser,
  page: guest,
}) => {
  // Guests other journeys left in company 12 stop counting once they no longer ask for their
  // place; the board sees that at its next refresh.
  test.setTimeout(120_000);
  const [admin, agent] = await Promise.all(
    [0, 1].map(async () => (await browser.newContext()).newPage()),
  );
  if (!admin || !agent) throw new Error('no page');
  try {
    await openWallboard(admin);
    await signIn(agent, AGENT.cy);
    const board = {
      waiting: admin.getByTestId('wallboard-waiting'),
      sales: admin.getByRole('row', { name: /^Sales/ }),
      inCall: admin.getByTestId('wallboard-state-inCall'),
    };
    await expect(board.waiting).toHaveText('0', { timeout: 45_000 });
    let navigations = 0;
    admin.on('framenavigated', (frame) => {
      if (frame === admin.mainFrame()) navigations += 1;
    });

    await walkToWaiting(guest, {
      categoryTestId: 'category-10',
      callType: 'Video call',
      name: 'Wanda Wallboard',
    });
    await expect(board.waiting).toHaveText('1', PUSHED);
    await expect(board.sales.getByRole('cell').first()).toHaveText('1', PUSHED);
    // The longest wait counts up on its own between refreshes.
    const longest = admin.getByTestId('wallboard-longest-wait');
    const firstReading = await longest.textContent();
    await expect(longest).not.toHaveText(firstReading ?? '', { timeout: 3_000 });
    await expect(admin.getByTestId('wallboard-announcement')).toContainText('1 waiting');

    await inspectScreen(admin, 'wallboard-desktop');
    await admin.setViewportSize({ width: 390, height: 844 });
    await inspectScreen(admin, 'wallboard-phone');
    await admin.setViewportSize({ width: 1280, height: 720 });

    // Cy takes the call: no one waits, and Cy is in a call.
    await agent
      .getByTestId('queue-guest')
      .filter({ hasText: 'Wanda Wallboard' })
      .getByRole('button', { name: /^Accept/ })
      .click();
    await expect(agent.getByTestId('call-screen')).toBeVisible();
    await expect(board.waiting).toHaveText('0', PUSHED);
    await expect(board.inCall).toContainText('Cy Agent', PUSHED);
    expect(navigations).toBe(0);

    await agent.getByRole('button', { name: 'End call' }).click();
    await expect(agent.getByTestId('call-screen')).toHaveAttribute('data-phase', 'ended');
    await expect(board.inCall).not.toContainText('Cy Agent', PUSHED);
  } finally {
    await Promise.all([admin, agent].map((page) => page.context().close()));
  }
});
