import { expect, test } from '../support/fixtures.ts';
import { COMPANY, inspectScreen } from '../support/guest.ts';
import { AGENT, signIn, waitingGuest } from '../support/console.ts';

/** Company 12's Support category (apps/api/src/db/seed.ts). */
const AROUND_THE_CLOCK_SUPPORT = 11;

test('an agent signs in, sees the queue of its categories, and a new guest in it', async ({
  page,
}) => {
  await page.goto('/console/');
  await expect(page.getByTestId('console-page')).toHaveAttribute('data-service', 'loaded');
  await inspectScreen(page, 'console-login');

  await page.getByLabel('E-mail').fill(AGENT.cy);
  await page.getByLabel('Password').fill('wrong password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('The e-mail or the password is wrong.');

  await signIn(page, AGENT.cy);
  await expect(page.getByRole('heading', { name: 'Waiting guests' })).toBeVisible();
  await expect(page.getByText('Nobody is waiting right now.')).toBeVisible();

  const guest = await waitingGuest(COMPANY.aroundTheClock, AROUND_THE_CLOCK_SUPPORT);
  try {
    const row = page.getByTestId('queue-guest');
    await expect(row).toHaveAttribute('data-guest', guest.nick);
    await expect(row.getByRole('button', { name: /^Accept/ })).toBeEnabled();
    await expect(page).toHaveTitle('(1) Frontdesk console');
    await inspectScreen(page, 'console-queue');
  } finally {
    await guest.leave();
  }
  // A guest who leaves drops out of every agent's queue (docs/protocol.md step 8).
  await expect(page.getByTestId('queue-guest')).toHaveCount(0);
  await expect(page).toHaveTitle('Frontdesk console');
});
