import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { inspectScreen, walkToWaiting } from '../support/guest.ts';

/** Company 12's admin (apps/api/src/db/seed.ts DEMO_LOGINS). */
const ZOE = 'zoe@frontdesk.demo';
const DEMO_PASSWORD = 'frontdesk-demo';

async function signInAt(page: Page, path: string, email: string, password: string) {
  await page.goto(path);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('an admin invites an agent, who signs in with the one-time password, chooses a password and takes a call; deactivated, the agent is signed out', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(180_000);
  // A new member each run: e-mails are unique across the installation.
  const email = `eve-${randomBytes(4).toString('hex')}@example.org`;
  const admin = await (await browser.newContext()).newPage();
  const agent = await (await browser.newContext()).newPage();
  try {
    // Zoe invites Eve from the team page and gets the one-time password to hand over.
    await signInAt(admin, '/console/admin/staff', ZOE, DEMO_PASSWORD);
    await expect(admin.getByRole('heading', { name: 'Team' })).toBeVisible();
    await admin.getByRole('button', { name: 'Invite a member' }).click();
    await admin.getByLabel('E-mail').fill(email);
    await admin.getByLabel('Name').fill('Eve Invited');
    await admin.getByRole('button', { name: 'Create the invitation' }).click();
    const notice = admin.getByTestId('one-time');
    await expect(notice).toContainText('It works once');
    const oneTimePassword = (await notice.getByTestId('one-time-password').textContent()) ?? '';
    expect(oneTimePassword).not.toBe('');
    // What a person and a screen reader get from the team page with the password shown.
    await inspectScreen(admin, 'admin-staff-invite');
    await admin.getByRole('button', { name: 'Done: I have handed it over' }).click();
    await expect(notice).toBeHidden();
    const eve = admin.getByTestId('staff-row').filter({ hasText: email });
    await expect(eve).toContainText('Invited');

    // Eve signs in with it, chooses her own password, and her workspace opens.
    await signInAt(agent, '/console/', email, oneTimePassword);
    await expect(agent.getByRole('heading', { name: 'Choose your password' })).toBeVisible();
    const password = `eve-${randomBytes(8).toString('hex')}`;
    await agent.getByLabel('New password', { exact: true }).fill(password);
    await agent.getByLabel('Repeat the new password').fill(password);
    await agent.getByRole('button', { name: 'Save and sign in' }).click();
    await expect(agent.getByTestId('workspace')).toHaveAttribute('data-chat', 'connected');
    await expect(agent.getByText('Joining your team…')).toBeHidden();

    // A guest calls company 12 and Eve takes the call.
    await walkToWaiting(guest, {
      categoryTestId: 'category-11',
      callType: 'Video call',
      name: 'Grace Guest',
    });
    const row = agent.getByTestId('queue-guest').filter({ hasText: 'Grace Guest' });
    await row.getByRole('button', { name: /^Accept/ }).click();
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
    await expect(agent.getByTestId('call-screen')).toBeVisible();

    // Zoe opens the team again (Eve now has a password of her own) and deactivates her, after
    // a confirmation saying what it does.
    await admin.getByRole('link', { name: 'Categories' }).click();
    // The categories page loads its code first: a click on Team before it is shown lands on the
    // team page still open, which then keeps its old list (seen once under load).
    await expect(admin.getByText(/^What guests choose from before a call/)).toBeVisible();
    await admin.getByRole('link', { name: 'Team' }).click();
    await expect(eve).toContainText('Active');
    await eve.getByRole('button', { name: 'Deactivate Eve Invited' }).click();
    const dialog = admin.getByRole('alertdialog', { name: 'Deactivate Eve Invited?' });
    await expect(dialog).toContainText('signed out within a minute');
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await expect(admin.getByTestId('outcome')).toHaveText(
      'Eve Invited is deactivated and is being signed out.',
    );
    await expect(eve).toContainText('Deactivated');

    // Eve's console is signed out within the minute, and her password no longer signs in.
    await expect(agent.getByText('Your session has ended: sign in again.')).toBeVisible({
      timeout: 60_000,
    });
    await expect(agent.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await agent.getByLabel('E-mail').fill(email);
    await agent.getByLabel('Password').fill(password);
    await agent.getByRole('button', { name: 'Sign in' }).click();
    await expect(agent.getByText('The e-mail or the password is wrong.')).toBeVisible();
  } finally {
    await admin.context().close();
    await agent.context().close();
  }
});
