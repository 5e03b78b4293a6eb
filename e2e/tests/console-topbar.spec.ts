import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { expectAxeClean, expectNoSidewaysScroll, signIn } from '../support/console.ts';

const docsImages = resolve(import.meta.dirname, '../../docs/images');
/** Company 12's admin (apps/api/src/db/seed.ts DEMO_LOGINS): the widest bar, with the admin's links. */
const ZOE = 'zoe@frontdesk.demo';

/** Every control of the top bar sits on one line: each starts above where every other ends. */
async function expectOneLine(page: Page) {
  const rows = await page.locator('.workspace > .topbar').evaluate((bar) => {
    const boxes = Array.from(bar.children, (child) => child.getBoundingClientRect());
    return {
      lowestTop: Math.max(...boxes.map((box) => box.top)),
      highestBottom: Math.min(...boxes.map((box) => box.bottom)),
    };
  });
  expect(rows.lowestTop).toBeLessThan(rows.highestBottom);
}

test('the top bar: one line on a laptop and a tablet, in English and Arabic; the user menu from the keyboard; a phone', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, ZOE);
  const bar = page.locator('.workspace > .topbar');
  const menuButton = page.getByRole('button', { name: 'Account menu, Zoe Admin' });
  // Availability stays in the bar, the one setting an agent changes all day.
  await expect(bar.getByLabel('Availability')).toBeVisible();
  await expectOneLine(page);
  await bar.screenshot({ path: `${docsImages}/console-topbar-1280.png` });
  await page.setViewportSize({ width: 1024, height: 768 });
  await expectOneLine(page);
  await expectNoSidewaysScroll(page);
  await bar.screenshot({ path: `${docsImages}/console-topbar-1024.png` });

  // The keyboard: Enter opens the menu on its first item, Escape closes it and gives the focus back.
  await menuButton.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu', { name: 'Account menu, Zoe Admin' })).toBeVisible();
  const menu = page.getByTestId('user-menu');
  await expect(menu.getByText('Signed in as Zoe Admin')).toBeVisible();
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
  await expectAxeClean(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${docsImages}/console-topbar-menu.png` });
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(menuButton).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu).toBeVisible();

  // Arabic from the menu: the bar mirrors and still fits one line.
  await menu.getByRole('menuitemradio', { name: 'العربية' }).click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  // The console is drawn again in Arabic; the menu's button keeps the focus.
  const arabicButton = page.getByRole('button', { name: 'قائمة الحساب، Zoe Admin' });
  await expect(arabicButton).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu', { name: 'قائمة الحساب، Zoe Admin' })).toBeVisible();
  await expect(menu.getByRole('menuitemradio', { name: 'العربية' })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await page.keyboard.press('Escape');
  await expect(arabicButton).toBeFocused();
  // Right to left: the title on the right, the menu's button at the left end.
  const title = await bar.getByRole('heading').boundingBox();
  const button = await arabicButton.boundingBox();
  expect(title && button && title.x > button.x).toBe(true);
  await expectOneLine(page);
  await expectAxeClean(page);
  await bar.screenshot({ path: `${docsImages}/console-topbar-1280-ar.png` });
  await page.setViewportSize({ width: 1024, height: 768 });
  await expectOneLine(page);
  await expectNoSidewaysScroll(page);
  await bar.screenshot({ path: `${docsImages}/console-topbar-1024-ar.png` });

  // A phone: the links below, every control reachable, nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await expectAxeClean(page);
  await page.screenshot({ path: `${docsImages}/console-topbar-phone-ar.png` });
  await arabicButton.click();
  await page.getByRole('menuitemradio', { name: 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await page.keyboard.press('Escape');
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${docsImages}/console-topbar-phone.png` });

  // Signing out is the menu's too.
  await menuButton.click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByLabel('E-mail')).toBeVisible();
});
