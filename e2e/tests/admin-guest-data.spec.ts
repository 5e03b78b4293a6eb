import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { expect, test } from '../support/fixtures.ts';
import { expectAxeClean, expectNoSidewaysScroll, signIn } from '../support/console.ts';
import { queryRows } from '../support/db.ts';

const docsImages = resolve(import.meta.dirname, '../../docs/images');
/** Company 13's admin (apps/api/src/db/seed.ts DEMO_LOGINS): its guests are this journey's own. */
const VAL = 'val@frontdesk.demo';

/** A guest of the company who answered the welcome form with `name` and `email`; its id. */
async function seedGuest(companyId: number, name: string, email: string): Promise<number> {
  const username = `g${randomBytes(12).toString('hex').slice(0, 25)}`;
  const [guest] = await queryRows<{ id: number }>(
    `insert into guests (company_id, username, fingerprint, jabberusername)
     values ($1, $2, $3, $4) returning id`,
    [companyId, username, randomBytes(32).toString('hex'), `g${companyId}-${username}`],
  );
  // The answers came through a welcome form the company has since retired (it shows none now).
  const [form] = await queryRows<{ id: number }>(
    `insert into forms (company_id, kind, title, fields, retired_at)
     values ($1, 'welcome', 'Contact', '[]', now()) returning id`,
    [companyId],
  );
  await queryRows(
    `insert into form_submissions (company_id, guest_id, form_id, service_type, answers)
     values ($1, $2, $3, 'Talk', $4)`,
    [companyId, guest?.id, form?.id, JSON.stringify({ name, email })],
  );
  return guest?.id ?? 0;
}

test("Guests' data: an admin finds a guest by an e-mail answer, downloads its archive and erases it after typing the word — desktop, phone, Arabic", async ({
  page,
}) => {
  const [admin] = await queryRows<{ company_id: number }>(
    'select company_id from staff where email = $1',
    [VAL],
  );
  const companyId = admin?.company_id ?? 0;
  const mark = randomBytes(3).toString('hex');
  const erased = await seedGuest(companyId, 'Rana Haddad', `rana.${mark}@example.com`);
  await seedGuest(companyId, 'Rami Haddad', `rami.${mark}@example.com`);

  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, VAL);
  await page.goto('/console/admin/guests');
  const guests = page.getByTestId('guests-page');
  await expect(guests.getByRole('heading', { name: "Guests' data" })).toBeVisible();
  await guests.getByLabel('The answer contains').fill(`nobody.${mark}`);
  await guests.getByRole('button', { name: 'Search' }).click();
  await expect(guests.getByTestId('guests-empty')).toBeVisible();

  await guests.getByLabel('The answer contains').fill(mark);
  await guests.getByRole('button', { name: 'Search' }).click();
  const rows = guests.getByTestId('guest-row');
  await expect(rows).toHaveCount(2);
  const rana = rows.filter({ hasText: 'Rana Haddad' });
  await expect(rana).toContainText(`rana.${mark}@example.com`);
  await expect(rana).toContainText('No calls');
  await expectAxeClean(page);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${docsImages}/console-admin-guest-data.png`, fullPage: true });

  const download = page.waitForEvent('download');
  await rana.getByRole('button', { name: /^Download the data of guest/ }).click();
  expect((await download).suggestedFilename()).toBe(`guest-${erased}.zip`);

  await rana.getByRole('button', { name: /^Erase the data of guest/ }).click();
  const dialog = page.getByTestId('guest-erase-dialog');
  await expect(dialog).toContainText('the recordings of their calls');
  await expect(dialog.getByRole('button', { name: 'Erase for good' })).toBeDisabled();
  await dialog.getByLabel('Type erase to confirm').fill('erase');
  await expectAxeClean(page);
  await page.screenshot({ path: `${docsImages}/console-admin-guest-data-erase.png` });
  await dialog.getByRole('button', { name: 'Erase for good' }).click();
  await expect(guests.getByTestId('outcome')).toContainText('The guest is erased');
  await expect(rows).toHaveCount(1);
  expect(await queryRows('select id from guests where id = $1', [erased])).toEqual([]);
  const [logged] = await queryRows<{ action: string }>(
    `select action from audit_entries where company_id = $1 and target = $2`,
    [companyId, `guest ${erased}`],
  );
  expect(logged?.action).toBeDefined();

  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await page.screenshot({
    path: `${docsImages}/console-admin-guest-data-phone.png`,
    fullPage: true,
  });

  // Arabic, right to left, on a phone and a laptop.
  await page.evaluate(() => {
    localStorage.setItem('frontdesk.console.language', 'ar');
    for (const key of Object.keys(localStorage)) {
      if (key.startsWith('frontdesk.console.language.')) localStorage.setItem(key, 'ar');
    }
  });
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(guests.getByRole('heading', { name: 'بيانات الضيوف' })).toBeVisible();
  await guests.getByLabel('الإجابة تحتوي على').fill(mark);
  await guests.getByRole('button', { name: 'بحث' }).click();
  await expect(rows).toHaveCount(1);
  await expectNoSidewaysScroll(page);
  await expectAxeClean(page);
  await page.screenshot({
    path: `${docsImages}/console-admin-guest-data-phone-ar.png`,
    fullPage: true,
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${docsImages}/console-admin-guest-data-ar.png`, fullPage: true });
});
