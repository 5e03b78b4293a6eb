import { expect, test } from '../support/fixtures.ts';
import { COMPANY, inspectScreen, openGuest } from '../support/guest.ts';

const viewports = [
  { name: 'desktop', size: { width: 1280, height: 800 } },
  { name: 'mobile', size: { width: 390, height: 844 } },
];

for (const viewport of viewports) {
  test.describe(`guest stages on ${viewport.name}`, () => {
    test.use({ viewport: viewport.size });

    test('out of hours: the company message, timetable and next opening', async ({ page }) => {
      await openGuest(page, COMPANY.alwaysClosed, 'schedule');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('We are closed right now');
      await expect(page.getByText('We are closed. Please come back another time.')).toBeVisible();
      await expect(page.getByRole('table', { name: /Opening hours/ })).toBeVisible();
      await inspectScreen(page, `guest-schedule-${viewport.name}`);
    });

    test('inactive company', async ({ page }) => {
      await openGuest(page, COMPANY.inactive, 'inactive');
      await expect(page.getByRole('heading', { name: 'Calls are not available' })).toBeFocused();
      await inspectScreen(page, `guest-inactive-${viewport.name}`);
    });

    test('outside the zone: the browser reports Paris to a London-only company', async ({
      page,
      context,
    }) => {
      await context.grantPermissions(['geolocation']);
      await context.setGeolocation({ latitude: 48.8566, longitude: 2.3522 });
      await openGuest(page, COMPANY.geofenced, 'outofzone');
      await expect(page.getByRole('heading', { name: 'Not available in your area' })).toBeVisible();
      await inspectScreen(page, `guest-outofzone-${viewport.name}`);
    });

    test('welcome form in Arabic, right to left', async ({ page }) => {
      await openGuest(page, COMPANY.arabic, 'welcome');
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
      await page.getByRole('button').last().click();
      await expect(page.getByRole('alert').first()).toHaveText(
        'يرجى مراجعة الحقول المشار إليها أدناه.',
      );
      await inspectScreen(page, `guest-welcome-rtl-${viewport.name}`);
    });
  });
}

test('a browser without WebRTC is told so', async ({ page }) => {
  await page.addInitScript(() => {
    Reflect.deleteProperty(window, 'RTCPeerConnection');
  });
  await openGuest(page, COMPANY.aroundTheClock, 'unsupported');
  await expect(page.getByText(/recent version of Chrome, Firefox, Safari or Edge/)).toBeVisible();
  await inspectScreen(page, 'guest-unsupported');
});

test('an automated browser is refused as a bot', async ({ browser }) => {
  // A bare context: navigator.webdriver stays true, as it is for every automated browser.
  const context = await browser.newContext();
  const page = await context.newPage();
  await openGuest(page, COMPANY.aroundTheClock, 'bot');
  await expect(
    page.getByRole('heading', { name: 'We could not verify your browser' }),
  ).toBeVisible();
  await inspectScreen(page, 'guest-bot');
  await context.close();
});

test('the welcome form keeps the guest until every required field is valid', async ({ page }) => {
  await openGuest(page, COMPANY.aroundTheClock, 'welcome');
  await page.getByLabel(/Your name/).fill('Grace Guest');
  await page.getByLabel(/E-mail/).fill('grace@example.org');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByText('Please fill this in.').first()).toBeVisible();
  await inspectScreen(page, 'guest-welcome-errors');
});

test.describe('the Arabic guest on a phone, right to left', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('welcome, preview, selection, waiting and abandoned: mirrored, named and audited', async ({
    page,
  }) => {
    await openGuest(page, COMPANY.arabic, 'welcome');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await page.getByLabel(/الاسم/).fill('سارة');
    await page.getByLabel(/البريد الإلكتروني/).fill('sara@example.org');
    await page.getByRole('button', { name: 'ابدأ' }).click();
    await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'preview');
    await expect(page.getByRole('heading', { name: 'تحقق من الكاميرا والميكروفون' })).toBeVisible();
    await inspectScreen(page, 'guest-preview-rtl-mobile');
    await page.getByRole('button', { name: 'متابعة' }).click();
    await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'selection');
    await inspectScreen(page, 'guest-selection-rtl-mobile');
    await page.getByRole('button', { name: 'ابدأ المكالمة' }).click();
    await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'waiting');
    await expect(page.getByTestId('queue-position')).toBeVisible();
    await inspectScreen(page, 'guest-waiting-rtl-mobile');
    await page.getByRole('button', { name: 'إلغاء المكالمة' }).click();
    await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'abandoned');
    await inspectScreen(page, 'guest-abandoned-rtl-mobile');
  });
});
