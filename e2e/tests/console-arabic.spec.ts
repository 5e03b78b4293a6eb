import { resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import {
  AGENT,
  expectAxeClean,
  expectNoSidewaysScroll,
  markAway,
  signIn,
} from '../support/console.ts';
import { walkToWaiting } from '../support/guest.ts';

const docsImages = resolve(import.meta.dirname, '../../docs/images');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`${String(locator)} has no box`);
  return found;
}

/** The document reads Arabic, right to left. */
async function expectArabic(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
}

test.describe('the console in Arabic (issue 19 item 6, decision 0029)', () => {
  test.beforeAll(async () => {
    // Only Cy takes company 12's calls here: Di is marked away.
    await markAway(AGENT.di);
  });

  test('an agent switches to Arabic: the queue and a call read right to left, and the choice stays', async ({
    browser,
    page: guest,
  }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ viewport: DESKTOP });
    const agent = await context.newPage();
    try {
      await signIn(agent, AGENT.cy);
      await expect(agent.locator('html')).toHaveAttribute('dir', 'ltr');
      // The language is the user menu's (issue 19).
      await agent.getByRole('button', { name: 'Account menu, Cy Agent' }).click();
      await agent.getByRole('menuitemradio', { name: 'العربية' }).click();
      await expectArabic(agent);
      // Translated, with the store's state kept: still signed in, the chat still up.
      await expect(agent.getByRole('heading', { name: 'الزوار المنتظرون' })).toBeVisible();
      const menuButton = agent.getByRole('button', { name: 'قائمة الحساب، Cy Agent' });
      await menuButton.click();
      await expect(agent.getByRole('menuitem', { name: 'تسجيل الخروج' })).toBeVisible();
      await agent.keyboard.press('Escape');
      await expect(agent.getByTestId('workspace')).toHaveAttribute('data-chat', 'connected');

      // The choice is kept for Cy: a reload opens the console in Arabic again.
      await agent.reload();
      await expectArabic(agent);
      await expect(agent.getByTestId('workspace')).toHaveAttribute('data-chat', 'connected');
      await menuButton.click();
      await expect(agent.getByRole('menuitemradio', { name: 'العربية' })).toHaveAttribute(
        'aria-checked',
        'true',
      );
      await agent.keyboard.press('Escape');

      await walkToWaiting(guest, {
        categoryTestId: 'category-12',
        callType: 'Video call',
        name: 'Rana Arabic',
      });
      const row = agent.getByTestId('queue-guest').filter({ hasText: 'Rana Arabic' });
      const accept = row.getByRole('button', { name: /^قبول/ });
      await expect(accept).toBeVisible();
      // Mirrored: the queue, first in the page, is the right-hand column.
      const queue = await box(agent.getByTestId('queue'));
      const middle = await box(agent.getByTestId('no-call'));
      expect(queue.x).toBeGreaterThanOrEqual(middle.x + middle.width);
      await expectNoSidewaysScroll(agent);
      await expectAxeClean(agent);
      await agent.screenshot({ path: `${docsImages}/console-ar-queue-desktop.png` });

      await accept.click();
      const call = agent.getByTestId('call-screen');
      await expect(call).toHaveAttribute('data-phase', 'active');
      await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
      await expect(agent.getByTestId('remote-video')).toHaveAttribute('data-live', 'true');
      // The call's controls in Arabic, first on the right: the row runs right to left.
      const mute = call.getByRole('button', { name: 'كتم الميكروفون' });
      const end = call.getByRole('button', { name: 'إنهاء المكالمة' });
      await expect(mute).toBeVisible();
      await expect(end).toBeVisible();
      expect((await box(mute)).x).toBeGreaterThan((await box(end)).x);
      const queueInCall = await box(agent.getByTestId('queue'));
      expect(queueInCall.x).toBeGreaterThanOrEqual((await box(call)).x + (await box(call)).width);
      await expectNoSidewaysScroll(agent);
      await expectAxeClean(agent);
      await agent.screenshot({ path: `${docsImages}/console-ar-call-desktop.png` });

      await agent.setViewportSize(PHONE);
      await expect(end).toBeVisible();
      await expectNoSidewaysScroll(agent);
      await expectAxeClean(agent);
      await agent.screenshot({ path: `${docsImages}/console-ar-call-phone.png`, fullPage: true });

      await end.click();
      await expect(agent.getByRole('button', { name: 'العودة إلى قائمة الانتظار' })).toBeVisible();
    } finally {
      await context.close();
    }
  });

  test('an admin chooses Arabic before signing in: settings and reports read right to left', async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/console/');
    await page.getByLabel('Language').selectOption('ar');
    await expectArabic(page);
    // Company 12's admin (apps/api/src/db/seed.ts DEMO_LOGINS), signing in in Arabic.
    await page.getByLabel('البريد الإلكتروني').fill('zoe@frontdesk.demo');
    await page.getByLabel('كلمة المرور').fill('frontdesk-demo');
    await page.getByRole('button', { name: 'تسجيل الدخول' }).click();
    await expect(page.getByTestId('workspace')).toHaveAttribute('data-chat', 'connected');

    // A new page load keeps the language chosen in this browser.
    await page.goto('/console/admin/brand');
    await expectArabic(page);
    await expect(page.getByRole('heading', { name: 'العلامة التجارية' })).toBeVisible();
    // The settings' groups run right to left: the first on the right, where an Arabic reader starts.
    const groups = page.getByRole('navigation', { name: 'الإعدادات' }).getByRole('link');
    const [first, second] = [await box(groups.nth(0)), await box(groups.nth(1))];
    expect(first.y).toBe(second.y);
    expect(first.x).toBeGreaterThan(second.x);
    await expectNoSidewaysScroll(page);
    // The preview frame holds the guest's page, audited by the guest's own journeys.
    await expectAxeClean(page, { exclude: '[data-testid="preview-frame"]' });
    await page.screenshot({ path: `${docsImages}/console-ar-admin-desktop.png` });

    await page.setViewportSize(PHONE);
    await page.goto('/console/reports');
    await expectArabic(page);
    await expect(page.getByRole('heading', { name: 'التقارير' }).first()).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectAxeClean(page);
    await page.screenshot({ path: `${docsImages}/console-ar-reports-phone.png`, fullPage: true });
  });
});
