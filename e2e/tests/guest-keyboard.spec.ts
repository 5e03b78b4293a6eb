import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { COMPANY, openGuest } from '../support/guest.ts';

/** Presses Tab until `target` has the focus: proves it can be reached without a mouse. */
async function tabTo(page: Page, target: Locator, limit = 40) {
  for (let presses = 0; presses < limit; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`could not reach ${target.toString()} with Tab`);
}

test('a guest reaches the queue and leaves it with the keyboard alone', async ({ page }) => {
  await openGuest(page, COMPANY.aroundTheClock, 'welcome');
  await tabTo(page, page.getByLabel(/Your name/));
  await page.keyboard.type('Kim Keys');
  await tabTo(page, page.getByLabel(/E-mail/));
  await page.keyboard.type('kim@example.org');
  await tabTo(page, page.getByLabel(/What is it about/));
  await page.keyboard.press('ArrowDown');
  await tabTo(page, page.getByRole('button', { name: 'Start' }));
  await page.keyboard.press('Enter');

  await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'preview');
  await tabTo(page, page.getByRole('button', { name: 'Continue' }));
  await page.keyboard.press('Enter');

  await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'selection');
  // Arrow keys move between the radio buttons of a group.
  await tabTo(page, page.getByRole('radio', { name: 'Sales' }));
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('radio', { name: 'Support' })).toBeChecked();
  await tabTo(page, page.getByRole('radio', { name: 'Video call' }));
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('radio', { name: 'Voice call' })).toBeChecked();
  await tabTo(page, page.getByRole('button', { name: 'Start the call' }));
  await page.keyboard.press('Enter');

  await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'waiting');
  await tabTo(page, page.getByRole('button', { name: 'Cancel the call' }));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'abandoned');
});
