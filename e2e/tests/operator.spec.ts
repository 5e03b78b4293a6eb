import { randomBytes } from 'node:crypto';
import { adminRoutes, envelope, operatorLoginSchema, routes } from '@frontdesk/protocol';
import { expect, likeAPerson, test } from '../support/fixtures.ts';
import { api } from '../support/console.ts';
import { queryRows } from '../support/db.ts';
import { inspectScreen } from '../support/guest.ts';
import { makeOperator } from '../support/operator.ts';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

test('an operator creates a company in the console; its admin signs in with the one-time password and chooses one, and its guest page opens', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const suffix = randomBytes(3).toString('hex');
  const operator = await makeOperator(`olga-${suffix}@ops.example`);
  const companyName = `Harbour Tours ${suffix}`;
  const adminEmail = `hana-${suffix}@harbour.example`;

  // The operator's own sign-in, at its own address.
  await page.setViewportSize(DESKTOP);
  await page.goto('/console/operator');
  await expect(page.getByRole('heading', { name: 'Operator sign-in' })).toBeVisible();
  await inspectScreen(page, 'operator-sign-in');
  await page.getByLabel('E-mail').fill(operator.email);
  await page.getByLabel('Password').fill(operator.password);
  const [signedIn] = await Promise.all([
    page.waitForResponse('**/api/operator/login'),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  const { token } = envelope(operatorLoginSchema).parse(await signedIn.json()).data;
  await expect(page.getByText(`Signed in as Olga Operator (${operator.email})`)).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Frontdesk Around the Clock' })).toContainText(
    'zoe@frontdesk.demo',
  );

  // New company: its admin's one-time password is shown, with where to use it.
  await page.getByLabel('Company name').fill(companyName);
  await page.getByLabel('Admin’s e-mail').fill(adminEmail);
  await page.getByLabel('Admin’s name (optional)').fill('Hana Harbour');
  await page.getByRole('button', { name: 'Create the company' }).click();
  const notice = page.getByTestId('operator-created');
  const heading = notice.getByRole('heading', { level: 2 });
  await expect(heading).toHaveText(new RegExp(`^${companyName} is created \\(company \\d+\\)$`));
  await expect(heading).toBeFocused();
  const companyId = Number(/company (\d+)\)$/.exec(await heading.innerText())?.[1]);
  const oneTimePassword = await notice.getByTestId('one-time-password').innerText();
  expect(oneTimePassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
  await expect(page.getByRole('listitem', { name: companyName })).toContainText(adminEmail);
  await inspectScreen(page, 'operator-created');
  await page.setViewportSize(PHONE);
  await inspectScreen(page, 'operator-created-phone');
  await page.setViewportSize(DESKTOP);

  // Stored as the operator's doing.
  const audit = await queryRows<{ actor: string; target: string }>(
    `SELECT actor, target FROM audit_entries WHERE company_id = $1 AND action = 'company.create'`,
    [companyId],
  );
  expect(audit).toEqual([{ actor: `operator ${operator.email}`, target: `company ${companyId}` }]);

  // The company's guest page, from the notice's link: the company's own page, open.
  const [guest] = await Promise.all([
    page.waitForEvent('popup'),
    notice.getByRole('link', { name: new RegExp(`\\?company=${companyId}$`) }).click(),
  ]);
  await expect(guest.getByTestId('guest-page')).toHaveAttribute(
    'data-stage',
    /^(welcome|preview|selection)$/,
  );
  await expect(guest.getByText(companyName).first()).toBeVisible();
  await guest.close();

  // Done: the password is gone from the page for good, and the form is back.
  const consoleUrl = await notice.getByRole('link', { name: /\/console\/$/ }).getAttribute('href');
  await notice.getByRole('button', { name: 'Done: I have copied it' }).click();
  await expect(page.getByText(oneTimePassword)).toHaveCount(0);
  await expect(page.getByLabel('Company name')).toHaveValue('');
  await inspectScreen(page, 'operator-companies');
  await page.setViewportSize(PHONE);
  await inspectScreen(page, 'operator-companies-phone');

  // The new admin, in a browser of their own: the one-time password, then a password of their own.
  const adminContext = await browser.newContext();
  await likeAPerson(adminContext);
  const admin = await adminContext.newPage();
  await admin.goto(consoleUrl ?? '/console/');
  await admin.getByLabel('E-mail').fill(adminEmail);
  await admin.getByLabel('Password').fill(oneTimePassword);
  await admin.getByRole('button', { name: 'Sign in' }).click();
  await expect(admin.getByRole('heading', { name: 'Choose your password' })).toBeVisible();
  const ownPassword = `harbour-${suffix}-own-password`;
  await admin.getByLabel('New password', { exact: true }).fill(ownPassword);
  await admin.getByLabel('Repeat the new password').fill(ownPassword);
  await admin.getByRole('button', { name: 'Save and sign in' }).click();
  await expect(admin.getByTestId('workspace')).toBeVisible();
  await adminContext.close();

  // The one-time password is spent; the admin's own one signs in.
  await expect(
    api(routes.staffLogin, { body: { email: adminEmail, password: oneTimePassword } }),
  ).rejects.toMatchObject({ status: 401 });
  const login = await api(routes.staffLogin, {
    body: { email: adminEmail, password: ownPassword },
  });
  expect(login.data).toMatchObject({ user: { role: 'admin', companyId, name: 'Hana Harbour' } });

  // Signing out ends the operator's token.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Operator sign-in' })).toBeVisible();
  await expect(api(adminRoutes.operatorCompanies, { token })).rejects.toMatchObject({
    status: 401,
  });
});
