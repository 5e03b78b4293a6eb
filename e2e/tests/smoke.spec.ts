import { expect, test } from '@playwright/test';
import { resolve } from 'node:path';

const screenshots = resolve(import.meta.dirname, '../../artifacts/screenshots');

test('the guest page renders its first screen', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('guest-page')).toHaveAttribute('data-service', 'ready');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.screenshot({ path: `${screenshots}/guest-first-screen.png`, fullPage: true });
});

test('the console renders and sees every service running', async ({ page }) => {
  await page.goto('/console/');
  const console = page.getByTestId('console-page');
  await expect(console).toHaveAttribute('data-service', 'loaded');
  for (const dependency of ['database', 'xmpp', 'janus']) {
    await expect(page.getByTestId(`dependency-${dependency}`)).toHaveAttribute('data-status', 'up');
  }
  await page.screenshot({ path: `${screenshots}/console-first-screen.png`, fullPage: true });
});
