import { resolve } from 'node:path';
import { expect, test } from '../support/fixtures.ts';
import { expectAxeClean, expectNoSidewaysScroll, signIn } from '../support/console.ts';
import { queryRows } from '../support/db.ts';

const docsImages = resolve(import.meta.dirname, '../../docs/images');
/** Company 13's admin (apps/api/src/db/seed.ts DEMO_LOGINS): no other journey changes its periods. */
const VAL = 'val@frontdesk.demo';

test('Privacy & retention: an admin reads each period with its meaning and default, is told a bad one, saves one, and sees the last runs — desktop, phone, Arabic', async ({
  page,
}) => {
  const [admin] = await queryRows<{ company_id: number }>(
    'select company_id from staff where email = $1',
    [VAL],
  );
  const companyId = admin?.company_id;
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, VAL);
  await page.goto('/console/admin/privacy');
  const privacy = page.getByTestId('privacy-page');
  await expect(privacy.getByRole('heading', { name: 'Privacy & retention' })).toBeVisible();
  // No run yet: the empty state says when the first one is.
  await expect(privacy.getByTestId('retention-runs-empty')).toHaveText(
    'No run yet: the first runs tonight at 03:00 UTC.',
  );
  await expect(privacy.getByText('Chat transcripts are not kept', { exact: false })).toBeVisible();
  const recordings = privacy.getByLabel('Call recordings');
  await expect(recordings).toHaveValue('90');
  await expect(privacy.getByTestId('retention-recordings')).toContainText('Default: 90 days.');
  await expect(privacy.getByLabel('Guest identities')).toHaveValue('365');
  await expect(privacy.getByLabel('Audit log')).toHaveValue('730');

  // Zero days is refused beside the field, before anything is sent.
  await recordings.fill('0');
  await privacy.getByRole('button', { name: 'Save the periods' }).click();
  await expect(privacy.getByTestId('retention-recordings')).toContainText(
    'Enter a whole number of days from 1 to 3650.',
  );
  await expect(recordings).toHaveAttribute('aria-invalid', 'true');
  await recordings.fill('30');
  await privacy.getByRole('button', { name: 'Save the periods' }).click();
  await expect(privacy.getByTestId('outcome')).toHaveText(
    "The retention periods are saved. Tonight's run applies them.",
  );
  await expect(privacy.getByLabel('Call recordings')).toHaveValue('30');
  const [stored] = await queryRows<{ recordings_days: number }>(
    'select recordings_days from company_retention where company_id = $1',
    [companyId],
  );
  expect(stored?.recordings_days).toBe(30);

  // Two nights' runs, as the nightly job writes them.
  for (const [night, deleted] of [
    ['2026-11-25T03:00:00Z', 0],
    ['2026-11-26T03:00:00Z', 4],
  ] as const) {
    await queryRows(
      `insert into retention_runs (run_at, company_id, kind, deleted)
       select $1, $2, kind, case kind when 'recordings' then $3 when 'uploads' then $3 * 3 else 0 end
       from unnest(array['recordings', 'uploads', 'welcomeAnswers', 'ratingAnswers', 'callBugs',
         'guests', 'auditEntries']) as kind`,
      [night, companyId, deleted],
    );
  }
  await page.reload();
  const runs = privacy.getByTestId('retention-run');
  await expect(runs).toHaveCount(2);
  await expect(runs.first()).toContainText('Call recordings4 deleted');
  await expect(runs.first()).toContainText('Files sent in calls12 deleted');
  await expectAxeClean(page);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${docsImages}/console-admin-privacy.png`, fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${docsImages}/console-admin-privacy-phone.png`, fullPage: true });

  // Arabic, right to left, on a phone and a laptop.
  await page.evaluate(() => localStorage.setItem('frontdesk.console.language', 'ar'));
  await page.evaluate(() => {
    for (const key of Object.keys(localStorage)) {
      if (key.startsWith('frontdesk.console.language.')) localStorage.setItem(key, 'ar');
    }
  });
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(privacy.getByRole('heading', { name: 'الخصوصية ومدة الاحتفاظ' })).toBeVisible();
  await expect(privacy.getByLabel('تسجيلات المكالمات')).toHaveValue('30');
  await expectNoSidewaysScroll(page);
  await expectAxeClean(page);
  await page.screenshot({
    path: `${docsImages}/console-admin-privacy-phone-ar.png`,
    fullPage: true,
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${docsImages}/console-admin-privacy-ar.png`, fullPage: true });
});
