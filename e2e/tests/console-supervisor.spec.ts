import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, likeAPerson, test } from '../support/fixtures.ts';
import { AGENT, expectAxeClean, expectNoSidewaysScroll, signIn } from '../support/console.ts';
import { walkToWaiting } from '../support/guest.ts';

/** Company 12's admin (apps/api/src/db/seed.ts DEMO_LOGINS). */
const ZOE = 'zoe@frontdesk.demo';
const DEMO_PASSWORD = 'frontdesk-demo';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const docsImages = resolve(import.meta.dirname, '../../docs/images');
/** The view follows a change pushed through the chat server, as the wallboard does. */
const PUSHED = { timeout: 5_000 };

/**
 * A screenshot of the page at both sizes, kept in docs/images, each audited by axe and no wider
 * than its window.
 */
async function keepScreens(page: Page, name: string) {
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await expectAxeClean(page);
    await expectNoSidewaysScroll(page);
    const path = resolve(docsImages, `${name}-${size}.png`);
    await page.screenshot({ path, fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}

test('an admin watches an agent take a guest, hold and resume on the supervisor view; an agent may not open it', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const pages = await Promise.all(
    [0, 1, 2, 3].map(async () => {
      const context = await browser.newContext({ viewport: DESKTOP });
      await likeAPerson(context);
      return context.newPage();
    }),
  );
  const [admin, agent, sam, tess] = pages;
  if (!admin || !agent || !sam || !tess) throw new Error('no page');
  try {
    // Cy, an agent, has no link to the view, and is told it is for admins when he opens it.
    await signIn(agent, AGENT.cy);
    await expect(agent.getByRole('link', { name: 'Supervisor' })).toHaveCount(0);
    await agent.goto('/console/supervisor');
    await expect(agent.getByTestId('admins-only')).toBeVisible();
    await expect(agent.getByTestId('supervisor')).toHaveCount(0);
    await agent.goto('/console/queue');
    await expect(agent.getByTestId('workspace')).toHaveAttribute('data-chat', 'connected');

    // Zoe, the admin, signs in at the view's address.
    await admin.goto('/console/supervisor');
    await admin.getByLabel('E-mail').fill(ZOE);
    await admin.getByLabel('Password').fill(DEMO_PASSWORD);
    await admin.getByRole('button', { name: 'Sign in' }).click();
    await expect(admin.getByTestId('supervisor')).toBeVisible();
    const cy = admin.getByTestId('supervisor-agent').filter({ hasText: 'Cy Agent' });
    await expect(cy).toBeVisible();

    // Two guests wait in two categories: the agent's queue groups them, the admin sees them.
    await walkToWaiting(sam, {
      categoryTestId: 'category-10',
      callType: 'Video call',
      name: 'Sam Supervised',
    });
    await walkToWaiting(tess, {
      categoryTestId: 'category-11',
      callType: 'Voice call',
      name: 'Tess Waiting',
    });
    await expect(
      admin.getByTestId('supervisor-wait').filter({ hasText: 'Sam Supervised' }),
    ).toBeVisible(PUSHED);
    await expect(
      admin.getByTestId('supervisor-wait').filter({ hasText: 'Tess Waiting' }),
    ).toBeVisible(PUSHED);
    const sales = agent
      .getByTestId('queue-group')
      .filter({ has: agent.getByRole('heading', { name: 'Sales', exact: true }) });
    const support = agent
      .getByTestId('queue-group')
      .filter({ has: agent.getByRole('heading', { name: 'Support', exact: true }) });
    await expect(
      sales.getByTestId('queue-guest').filter({ hasText: 'Sam Supervised' }),
    ).toBeVisible();
    await expect(
      support.getByTestId('queue-guest').filter({ hasText: 'Tess Waiting' }),
    ).toBeVisible();
    await expect(sales.getByTestId('queue-group-count')).toHaveText(/^\d+ waiting$/);
    // The longest wait ticks on its own.
    const longest = sales.getByTestId('queue-group-longest');
    const reading = await longest.textContent();
    await expect(longest).not.toHaveText(reading ?? '', { timeout: 3_000 });
    await keepScreens(agent, 'console-queue');

    // Cy takes Sam: the admin sees who is in which call, for how long, without a reload.
    await sales
      .getByTestId('queue-guest')
      .filter({ hasText: 'Sam Supervised' })
      .getByRole('button', { name: /^Accept/ })
      .click();
    await expect(agent.getByTestId('call-screen')).toHaveAttribute('data-phase', 'active');
    // Cy's call with Sam (a journey before may have left Cy another call that the API still
    // counts live until its guest's minute runs out).
    const call = cy.getByTestId('supervisor-call').filter({ hasText: 'Sam Supervised' });
    await expect(call).toBeVisible(PUSHED);
    await expect(call).toContainText('Sales');
    await expect(call).toHaveAttribute('data-hold', 'false');
    await expect(cy).toHaveAttribute('data-state', 'inCall');
    await expect(
      admin.getByTestId('supervisor-wait').filter({ hasText: 'Sam Supervised' }),
    ).toHaveCount(0, PUSHED);
    const duration = call.locator('time').first();
    const first = await duration.textContent();
    await expect(duration).not.toHaveText(first ?? '', { timeout: 3_000 });

    // A hold shows, and so does taking the guest back.
    await agent.getByRole('button', { name: 'Hold' }).click();
    await expect(call).toHaveAttribute('data-hold', 'true', PUSHED);
    await expect(call.getByTestId('supervisor-hold')).toContainText('On hold');
    await keepScreens(admin, 'console-supervisor');
    // The same in Arabic, right to left: the choice this browser remembers, then a reload.
    await admin.evaluate(() => localStorage.setItem('frontdesk.console.language', 'ar'));
    await admin.reload();
    await expect(admin.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(call).toHaveAttribute('data-hold', 'true');
    await keepScreens(admin, 'console-supervisor-rtl');
    await agent.getByRole('button', { name: 'Resume' }).click();
    await expect(call).toHaveAttribute('data-hold', 'false', PUSHED);

    await agent.getByRole('button', { name: 'End call' }).click();
    await expect(call).toHaveCount(0, PUSHED);
  } finally {
    await Promise.all(pages.map((page) => page.context().close()));
  }
});
