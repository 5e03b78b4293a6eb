import { expect, test } from '../support/fixtures.ts';
import { queryRows } from '../support/db.ts';
import {
  COMPANY,
  inspectScreen,
  openGuest,
  pageRefusingCamera,
  refuseLocation,
} from '../support/guest.ts';

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

test.describe('stages that say what went wrong and what the guest can do', () => {
  for (const viewport of viewports) {
    test.describe(viewport.name, () => {
      test.use({ viewport: viewport.size });

      test('a refused camera says so and offers a voice call, which reaches the queue', async ({
        playwright,
        launchOptions,
        baseURL,
        userAgent,
      }) => {
        // The guest blocks the camera in the browser's prompt and allows the microphone.
        const { page, close } = await pageRefusingCamera(playwright, launchOptions, {
          baseURL,
          userAgent,
          viewport: viewport.size,
        });
        try {
          await openGuest(page, COMPANY.aroundTheClock, 'welcome');
          await page.getByLabel(/Your name/).fill('Vera Voice');
          await page.getByLabel(/E-mail/).fill('vera@example.org');
          await page.getByLabel(/What is it about/).selectOption('existing-order');
          await page.getByRole('button', { name: 'Start' }).click();
          await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'unsupported');
          await expect(
            page.getByRole('heading', { name: 'We cannot use your camera' }),
          ).toBeFocused();
          await expect(page.getByText('This browser cannot make calls')).toHaveCount(0);
          const voice = page.getByRole('button', { name: 'Make a voice call instead' });
          await expect(voice).toBeInViewport();
          await inspectScreen(page, `guest-camera-refused-${viewport.name}`);

          await voice.click();
          await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'preview');
          await expect(page.getByText('Voice only: no camera needed.')).toBeVisible();
          await expect(page.getByTestId('preview-video')).toHaveCount(0);
          await page.getByRole('button', { name: 'Continue' }).click();
          // No choice of video left; Back returns to the microphone check.
          await expect(page.getByLabel('Video call')).toHaveCount(0);
          await expect(page.getByRole('button', { name: 'Back' })).toBeVisible();
          await expect(page.getByRole('button', { name: 'Start the call' })).toBeInViewport();
          await page.getByRole('button', { name: 'Start the call' }).click();
          await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'waiting');
          await expect
            .poll(async () => {
              const [row] = await queryRows<{ call_type: string | null }>(
                `select r.call_type from call_reports r join form_submissions f
                   on f.guest_id = r.guest_id
                  where r.company_id = $1 and f.answers->>'name' = $2
                  order by r.id desc limit 1`,
                [COMPANY.aroundTheClock, 'Vera Voice'],
              );
              return row?.call_type;
            })
            .toBe('voice');
          await page.getByRole('button', { name: 'Cancel the call' }).click();
          await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'abandoned');
        } finally {
          await close();
        }
      });

      test('a location the browser did not share is not "outside our area"', async ({ page }) => {
        await page.goto('/');
        await refuseLocation(page);
        await openGuest(page, COMPANY.geofenced, 'outofzone');
        await expect(page.getByRole('heading', { name: 'We need your location' })).toBeFocused();
        await expect(page.getByText('Not available in your area')).toHaveCount(0);
        await expect(page.getByRole('button', { name: 'Try again' })).toBeInViewport();
        await inspectScreen(page, `guest-location-refused-${viewport.name}`);
      });

      test('an unknown company link says so', async ({ page }) => {
        await openGuest(page, 987654, 'failed');
        await expect(page.getByRole('heading', { name: 'We do not know this link' })).toBeFocused();
        await expect(page.getByText(/does not belong to any company we know/)).toBeVisible();
        await inspectScreen(page, `guest-unknown-company-${viewport.name}`);
      });
    });
  }
});

test('a screen that cannot load shows a friendly page and files a call-bug report', async ({
  page,
}) => {
  // The call code's first screen fails to download, as on a connection that drops just then.
  await page.route(/\/assets\/PreviewPage[^/]*\.js$/, (route) => route.abort());
  await openGuest(page, COMPANY.aroundTheClock, 'welcome');
  await page.getByLabel(/Your name/).fill('Cora Crash');
  await page.getByLabel(/E-mail/).fill('cora@example.org');
  await page.getByLabel(/What is it about/).selectOption('existing-order');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(
    page.getByRole('heading', { name: 'Sorry, something broke on our side' }),
  ).toBeFocused();
  await expect(page.getByTestId('crash-report')).toHaveText(
    'We have sent a report to our team so they can fix it.',
  );
  await expect(page.getByRole('button', { name: 'Reload the page' })).toBeVisible();
  await inspectScreen(page, 'guest-crashed');
  const [bug] = await queryRows<{ crash: string | null }>(
    `select guest_state->'crash'->>'message' as crash from call_bugs
      where company_id = $1 order by id desc limit 1`,
    [COMPANY.aroundTheClock],
  );
  expect(bug?.crash).toMatch(/PreviewPage|dynamically imported module|Failed to fetch/);
});
