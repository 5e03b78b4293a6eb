import { expect, test } from '../support/fixtures.ts';
import { resolve } from 'node:path';
import { AGENT, signIn } from '../support/console.ts';

const screenshots = resolve(import.meta.dirname, '../../artifacts/screenshots');

test('the guest page renders its first screen', async ({ page }) => {
  await page.goto('/');
  const guest = page.getByTestId('guest-page');
  // The first screen the demo company shows depends on the hour (schedule) and the seed (form).
  await expect(guest).toHaveAttribute('data-stage', /^(welcome|preview|selection|schedule)$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.screenshot({ path: `${screenshots}/guest-first-screen.png`, fullPage: true });
});

test('the console renders and sees every service running', async ({ page }) => {
  await page.goto('/console/');
  const console = page.getByTestId('console-page');
  await expect(console).toHaveAttribute('data-service', 'loaded');
  // Signed out, the health check says only whether everything is up.
  await expect(page.getByTestId('dependency-all')).toHaveAttribute('data-status', 'up');
  await page.screenshot({ path: `${screenshots}/console-first-screen.png`, fullPage: true });
  // An admin sees each service.
  await signIn(page, AGENT.admin);
  for (const dependency of ['database', 'xmpp', 'janus']) {
    await expect(page.getByTestId(`dependency-${dependency}`)).toHaveAttribute('data-status', 'up');
  }
});
