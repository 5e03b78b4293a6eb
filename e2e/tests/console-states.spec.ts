import { resolve } from 'node:path';
import type { Route } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { expectAxeClean, signIn } from '../support/console.ts';

const docsImages = resolve(import.meta.dirname, '../../docs/images');

test('a list while it loads, then empty: a busy status, then what to do next (issue 19)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, 'zoe@frontdesk.demo');
  // The calls list's answer is held until the loading state has been seen.
  let held: Route | undefined;
  const arrived = new Promise<void>((resolveArrival) => {
    void page.route('**/api/reports/calls?**', (route) => {
      held = route;
      resolveArrival();
    });
  });
  // Two days long before Frontdesk took any call: nothing matches.
  await page.goto('/console/reports/calls?range=custom&from=2020-01-01&to=2020-01-02');
  await arrived;
  const loading = page.getByRole('status').filter({ hasText: 'Loading the calls…' });
  await expect(loading).toHaveAttribute('aria-busy', 'true');
  await expectAxeClean(page);
  await page.screenshot({ path: `${docsImages}/console-empty-calls-loading.png` });

  await held?.continue();
  const empty = page.getByTestId('calls-empty');
  await expect(empty).toContainText('No calls match these filters.');
  await expect(empty).toContainText('Widen the dates or clear a filter to see more calls.');
  await expect(loading).toHaveCount(0);
  await expectAxeClean(page);
  await page.screenshot({ path: `${docsImages}/console-empty-calls.png` });
});
