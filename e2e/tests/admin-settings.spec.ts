import type { FrameLocator, Locator, Page } from '@playwright/test';
import { adminRoutes, type CompanyUpdateBody, routes } from '@frontdesk/protocol';
import { expect, likeAPerson, test } from '../support/fixtures.ts';
import { agentPage, AGENT, api } from '../support/console.ts';
import { COMPANY, walkToWaiting } from '../support/guest.ts';

/** Company 12's admin (apps/api/src/db/seed.ts DEMO_LOGINS). */
const ZOE = 'zoe@frontdesk.demo';
const DEMO_PASSWORD = 'frontdesk-demo';

const BRAND_COLOUR = '#0f766e';
const BRAND_RGB = 'rgb(15, 118, 110)';
const WELCOME = 'Hello from the admin test: a person is one click away.';

const background = (element: Locator) =>
  element.evaluate((node) => getComputedStyle(node).backgroundColor);

/** Signs Zoe in at the address of a settings group and waits for the preview to listen. */
async function openSettings(page: Page, group: string): Promise<FrameLocator> {
  await page.goto(`/console/admin/${group}`);
  await page.getByLabel('E-mail').fill(ZOE);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Signing in keeps the address: the settings group opens, not the workspace.
  await expect(page.getByRole('heading', { name: 'Brand' })).toBeVisible();
  await expect(page.getByTestId('preview-frame')).toHaveAttribute('data-connected', 'true');
  return page.frameLocator('[data-testid="preview-frame"]');
}

/** Zoe's access token, for putting back through the API what a test changed. */
async function zoeToken(): Promise<string | undefined> {
  const login = await api(routes.staffLogin, { body: { email: ZOE, password: DEMO_PASSWORD } });
  return 'access_token' in login.data ? login.data.access_token : undefined;
}

/** Puts back what the test changed, whatever happened to the page (other journeys use 12). */
async function restoreCompany(before: CompanyUpdateBody) {
  const token = await zoeToken();
  const { data: now } = await api(routes.company, {
    params: { id: String(COMPANY.aroundTheClock) },
  });
  await api(adminRoutes.updateCompany, {
    params: { id: String(COMPANY.aroundTheClock) },
    body: before,
    token,
    ifMatch: now.version,
  });
}

test('an admin changes the brand colour, the welcome text and the rating style, sees each in the preview, saves, and a new guest gets them', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const { data: original } = await api(routes.company, {
    params: { id: String(COMPANY.aroundTheClock) },
  });
  try {
    const preview = await openSettings(page, 'brand');

    // The brand colour: the preview's buttons take it before anything is saved.
    await page.getByLabel('Button colour', { exact: true }).fill(BRAND_COLOUR);
    await page.getByLabel('Page', { exact: true }).selectOption('welcome');
    const previewStart = preview.getByRole('button', { name: 'Start' });
    await expect.poll(() => background(previewStart)).toBe(BRAND_RGB);

    // The welcome text, typed in another group: the draft of both travels along.
    await page.getByRole('link', { name: 'Pages and texts' }).click();
    await expect(page).toHaveURL(/\/console\/admin\/pages$/);
    await page.getByLabel('Welcome message').fill(WELCOME);
    await expect(preview.getByText(WELCOME)).toBeVisible();
    expect(await background(previewStart)).toBe(BRAND_RGB);

    // The rating style, seen on the rating page of the preview.
    await page.getByRole('link', { name: 'Call', exact: true }).click();
    await page.getByLabel('Rating style').selectOption('emojies');
    await page.getByLabel('Page', { exact: true }).selectOption('rating');
    await expect(preview.locator('.rating-emojies')).toBeVisible();
    await expect(page.getByTestId('unsaved-count')).toHaveText('3 unsaved changes');

    // Nothing is saved yet: the API still answers the old settings.
    const { data: unsaved } = await api(routes.company, {
      params: { id: String(COMPANY.aroundTheClock) },
    });
    expect(unsaved).toMatchObject({ version: original.version, ratingStyle: 'stars' });

    await page.getByRole('button', { name: 'Save changes' }).click();
    const summary = page.getByTestId('save-summary');
    await expect(summary).toContainText('Saved: 3 changes');
    await expect(summary).toContainText('Rating style Stars → Emojis');
    await expect(summary).toContainText(
      `Button colour “${original.categoryBackgroundColor}” → “${BRAND_COLOUR}”`,
    );
    await expect(page.getByTestId('unsaved-count')).toHaveText('All changes saved');

    // A guest who opens the page afresh gets all three: colour and text at once, the emojis
    // after a call.
    const guestContext = await browser.newContext();
    await likeAPerson(guestContext);
    const guestPage = await guestContext.newPage();
    const agent = await agentPage(browser, AGENT.cy);
    try {
      await guestPage.goto(`/?company=${COMPANY.aroundTheClock}`);
      await expect(guestPage.getByText(WELCOME)).toBeVisible();
      expect(await background(guestPage.getByRole('button', { name: 'Start' }))).toBe(BRAND_RGB);
      await walkToWaiting(guestPage, {
        categoryTestId: 'category-11',
        callType: 'Voice call',
        name: 'Ada Admin-Test',
      });
      await agent
        .getByTestId('queue-guest')
        .filter({ hasText: 'Ada Admin-Test' })
        .getByRole('button', { name: /^Accept/ })
        .click();
      await expect(guestPage.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
      await agent.getByRole('button', { name: 'End call' }).click();
      await expect(guestPage.getByTestId('guest-page')).toHaveAttribute('data-stage', 'rating');
      await expect(guestPage.locator('.rating-emojies')).toBeVisible();
    } finally {
      await guestContext.close();
      await agent.context().close();
    }
  } finally {
    await restoreCompany({
      categoryBackgroundColor: original.categoryBackgroundColor,
      welcomeMsg: original.welcomeMsg,
      ratingStyle: original.ratingStyle,
    });
  }
});

test('an admin closes the company for today, sees the closed page in the preview, saves, and a new guest gets it', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const company = { id: String(COMPANY.aroundTheClock) };
  try {
    await openSettings(page, 'brand');
    await page.getByRole('link', { name: 'Opening hours' }).click();
    await expect(page).toHaveURL(/\/console\/admin\/schedule$/);
    // Company 12 keeps no timetable: it is open at any hour until one is set.
    await page.getByRole('button', { name: 'Set opening hours' }).click();
    await page.getByRole('button', { name: 'Add a holiday' }).click();
    // Today in the browser's own zone, which the new timetable takes.
    const today = await page.evaluate(() => new Date().toLocaleDateString('en-CA'));
    await page.getByLabel('Date', { exact: true }).fill(today);
    await page.getByLabel('Name (optional)').fill('Stocktaking');
    await expect(page.getByTestId('opening-summary')).toContainText(
      'With your changes: closed now.',
    );
    const preview = page.frameLocator('[data-testid="preview-frame"]');
    await expect(preview.getByTestId('stage-schedule')).toBeVisible();
    await expect(preview.getByTestId('special-dates')).toContainText('Stocktaking');

    // Nothing is saved yet: guests can still call.
    const { data: unsaved } = await api(routes.company, { params: company });
    expect(unsaved.schedule).toBeNull();

    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByTestId('save-summary')).toBeVisible();
    await expect(page.getByTestId('opening-summary')).toContainText(
      'Closed now: guests see the closed page.',
    );

    const guestContext = await browser.newContext();
    await likeAPerson(guestContext);
    try {
      const guestPage = await guestContext.newPage();
      await guestPage.goto(`/?company=${COMPANY.aroundTheClock}`);
      await expect(guestPage.getByTestId('guest-page')).toHaveAttribute('data-stage', 'schedule');
      await expect(guestPage.getByTestId('special-dates')).toContainText('Stocktaking');
    } finally {
      await guestContext.close();
    }
  } finally {
    // Other journeys call company 12 at any hour: take the timetable away again if it was saved.
    const { data: after } = await api(routes.company, { params: company });
    if (after.schedule) {
      await api(adminRoutes.removeCompanySchedule, { params: company, token: await zoeToken() });
    }
  }
});
