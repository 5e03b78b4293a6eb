import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { COMPANY } from '../support/guest.ts';
import { AGENT, signIn, waitingGuest } from '../support/console.ts';

/** Company 12's Sales category (apps/api/src/db/seed.ts). */
const CLOCK_SALES = 10;

/** Signed in, with the chat up, without having been shown the sign-in form (decision 0024). */
async function expectSignedIn(page: Page) {
  await expect(page.getByTestId('workspace')).toHaveAttribute('data-chat', 'connected');
  await expect(page.getByLabel('E-mail')).toHaveCount(0);
}

/** Two tabs of Cy's: the first signs in, the second is signed in by its refresh cookie. */
async function twoTabs(context: BrowserContext) {
  const tabA = await context.newPage();
  const tabB = await context.newPage();
  await signIn(tabA, AGENT.cy);
  await tabB.goto('/console/');
  await expectSignedIn(tabB);
  return [tabA, tabB] as const;
}

test('two tabs of one agent both stay signed in, and what one sends shows in the other', async ({
  context,
}) => {
  // The second tab is signed in by the first's refresh cookie: no sign-in form.
  const [tabA, tabB] = await twoTabs(context);
  const guest = await waitingGuest(COMPANY.aroundTheClock, CLOCK_SALES);
  try {
    // Both tabs are in the rooms: each lists the guest and can open its chat.
    for (const tab of [tabA, tabB]) {
      const row = tab.getByTestId('queue-guest').and(tab.locator(`[data-guest="${guest.nick}"]`));
      await row.getByRole('button', { name: /^Chat/ }).click();
    }
    await tabA.getByLabel('Message').fill('Sent from tab A');
    await tabA.getByRole('button', { name: 'Send' }).click();
    await expect(
      tabA.getByTestId('chat-message').filter({ hasText: 'Sent from tab A' }),
    ).toHaveAttribute('data-direction', 'out');
    // Carbons bring the other tab what this one sent.
    await expect(
      tabB.getByTestId('chat-message').filter({ hasText: 'Sent from tab A' }),
    ).toHaveAttribute('data-direction', 'out');

    // Neither tab was replaced by the other (spec §9's one resource is for guests).
    for (const tab of [tabA, tabB]) {
      await expect(tab.getByTestId('workspace')).toHaveAttribute('data-chat', 'connected');
      await expect(tab.getByRole('alert')).toHaveCount(0);
    }
  } finally {
    await guest.leave();
  }
});

test('a reload keeps the agent signed in and on the same view; signing out ends it for every tab', async ({
  context,
}) => {
  const tab = await context.newPage();
  await signIn(tab, AGENT.cy);
  // The workspace's view has an address of its own, which a reload keeps.
  await expect(tab).toHaveURL(/\/console\/queue$/);
  await tab.reload();
  await expectSignedIn(tab);
  await expect(tab).toHaveURL(/\/console\/queue$/);
  await tab.getByRole('button', { name: 'Account menu, Cy Agent' }).click();
  await expect(tab.getByRole('menu').getByText('Signed in as Cy Agent')).toBeVisible();
  await tab.keyboard.press('Escape');

  // The refresh token is a cookie no script of the page can read, sent to the refresh route alone.
  const [cookie] = (await context.cookies()).filter((c) => c.name === 'frontdesk_refresh');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth/refresh' });
  expect(await tab.evaluate(() => document.cookie)).not.toContain('frontdesk_refresh');

  // A second tab opened on a link, then both reloaded at the same moment: each sends the cookie,
  // whose token works once; the tabs take turns (Web Locks), so neither is signed out.
  const other = await context.newPage();
  await other.goto('/console/queue');
  await expectSignedIn(other);
  await Promise.all([tab.reload(), other.reload()]);
  await Promise.all([expectSignedIn(tab), expectSignedIn(other)]);

  // Signing out in one tab clears the cookie: the other, reloaded, asks to sign in.
  const loggedOut = tab.waitForResponse((r) => r.url().endsWith('/api/auth/logout'));
  await tab.getByRole('button', { name: 'Account menu, Cy Agent' }).click();
  await tab.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(tab.getByLabel('E-mail')).toBeVisible();
  // The page shows the sign-in at once; the API hears of it after the chat has closed.
  expect((await loggedOut).status()).toBe(204);
  await other.reload();
  await expect(other.getByLabel('E-mail')).toBeVisible();
  await expect(other.getByRole('alert')).toHaveCount(0);
  expect((await context.cookies()).filter((c) => c.name === 'frontdesk_refresh')).toEqual([]);
});

test('availability chosen in one tab shows in every tab of the agent, and in a tab opened later', async ({
  context,
}) => {
  const [tabA, tabB] = await twoTabs(context);
  const availability = (tab: Page) => tab.getByLabel('Availability');
  await expect(availability(tabB)).toHaveValue('available');

  await availability(tabA).selectOption('away');
  await expect(availability(tabB)).toHaveValue('away');
  await expect(tabB.locator('.availability')).toHaveAttribute('data-availability', 'away');

  // And back, from the other tab.
  await availability(tabB).selectOption('busy');
  await expect(availability(tabA)).toHaveValue('busy');

  // A tab opened now starts from what the agent chose, not from "available".
  const tabC = await context.newPage();
  await tabC.goto('/console/queue');
  await expectSignedIn(tabC);
  await expect(availability(tabC)).toHaveValue('busy');
  await availability(tabA).selectOption('available');
  for (const tab of [tabB, tabC]) await expect(availability(tab)).toHaveValue('available');
});
