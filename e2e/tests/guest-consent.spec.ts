import type { Page } from '@playwright/test';
import type { CompanyUpdateBody } from '@frontdesk/protocol';
import { expect, test } from '../support/fixtures.ts';
import { agentPage, changeCompanySettings } from '../support/console.ts';
import { queryRows } from '../support/db.ts';
import { COMPANY, inspectScreen, openGuest, acceptFirstGuest } from '../support/guest.ts';

/** The voice line asks for consent during these journeys only (decision 0030). */
const company = COMPANY.voiceLine;
const CONSENT: CompanyUpdateBody = {
  consentRequired: true,
  consentText:
    'Frontdesk Voice Line keeps your answers and a recording of the call for 30 days to help you and to train our team.',
  privacyNoticeUrl: 'https://voice-line.example/privacy',
  websiteUrl: 'https://voice-line.example/',
  websiteTitle: 'voice-line.example',
};
const WITHOUT_CONSENT: CompanyUpdateBody = {
  consentRequired: null,
  consentText: null,
  privacyNoticeUrl: null,
  websiteUrl: null,
  websiteTitle: null,
};

/** Changes the voice line's settings as its admin Val would. */
const changeSettings = (body: CompanyUpdateBody) =>
  changeCompanySettings('val@frontdesk.demo', company, body);

const guestCount = async () =>
  Number(
    (
      await queryRows<{ n: string }>('select count(*) as n from guests where company_id = $1', [
        company,
      ])
    )[0]?.n,
  );

/** The requests the page makes to the API's guest identity routes (registration, login). */
function identityRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/guest-auth/')) seen.push(request.url());
  });
  return seen;
}

test.describe('a company that asks for consent', () => {
  test.beforeAll(() => changeSettings(CONSENT));
  test.afterAll(() => changeSettings(WITHOUT_CONSENT));

  test('the guest sees the consent step first, declines, and nothing is stored', async ({
    page,
  }) => {
    const before = await guestCount();
    const identity = identityRequests(page);
    await openGuest(page, company, 'consent');
    const step = page.getByRole('region', { name: 'Before we start' });
    await expect(page.getByRole('heading', { name: 'Before we start' })).toBeFocused();
    // The company's words are the step's description, read with its name.
    await expect(step).toHaveAccessibleDescription(/keeps your answers and a recording/);
    await expect(page.getByRole('link', { name: /privacy notice/ })).toHaveAttribute(
      'href',
      'https://voice-line.example/privacy',
    );
    await inspectScreen(page, 'guest-consent-desktop');

    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'I agree, continue' })).toBeFocused();
    await page.getByRole('button', { name: 'No, thanks' }).click();
    await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'consentDeclined');
    await expect(page.getByRole('heading', { name: 'Nothing was stored' })).toBeFocused();
    await expect(
      page.getByRole('link', { name: 'Back to voice-line.example' }).last(),
    ).toBeVisible();
    await inspectScreen(page, 'guest-consent-declined-desktop');

    // Nothing left the page about the guest, and nothing was kept, on the server or here.
    expect(identity).toEqual([]);
    expect(await guestCount()).toBe(before);
    const kept = await page.evaluate(() => Object.keys(window.localStorage));
    expect(kept.filter((key) => key.startsWith('frontdesk.guest'))).toEqual([]);

    // A change of mind leads back to the consent step.
    await page.getByRole('button', { name: 'I changed my mind' }).click();
    await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'consent');
  });

  test('the guest accepts and calls; the consent and its time are kept with the guest', async ({
    page: guest,
    browser,
  }) => {
    test.setTimeout(120_000);
    const agent = await agentPage(browser, 'dee@frontdesk.demo');
    try {
      await openGuest(guest, company, 'consent');
      await guest.getByRole('button', { name: 'I agree, continue' }).click();
      await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'preview');
      const [registered] = await queryRows<{ consent_given_at: Date | null }>(
        'select consent_given_at from guests where company_id = $1 order by id desc limit 1',
        [company],
      );
      expect(registered?.consent_given_at).toBeInstanceOf(Date);

      await guest.getByRole('button', { name: 'Continue' }).click();
      await guest.getByRole('button', { name: 'Start the call' }).click();
      await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'waiting');
      await acceptFirstGuest(guest, agent);
      await expect(guest.getByTestId('agent-name')).toHaveText('Dee');
      await agent.getByRole('button', { name: 'End call' }).click();
      await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'rating');
    } finally {
      await agent.context().close();
    }
  });

  test("the admin's settings show the consent step in the live preview as it is typed", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/console/admin/consent');
    await page.getByLabel('E-mail').fill('val@frontdesk.demo');
    await page.getByLabel('Password').fill('frontdesk-demo');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Consent' })).toBeVisible();
    await expect(page.getByTestId('preview-frame')).toHaveAttribute('data-connected', 'true');
    const preview = page.frameLocator('[data-testid="preview-frame"]');
    await expect(preview.getByRole('heading', { name: 'Before we start' })).toBeVisible();
    await page.getByLabel('Consent text').fill('May we keep your answers for a week?');
    await expect(preview.getByText('May we keep your answers for a week?')).toBeVisible();
    await inspectScreen(page, 'guest-consent-admin-desktop');
  });

  for (const { name, size } of [
    { name: 'phone', size: { width: 390, height: 844 } },
    { name: 'desktop', size: { width: 1280, height: 800 } },
  ]) {
    test(`the consent step and the declined page on a ${name}, left to right and in Arabic`, async ({
      page,
    }) => {
      await page.setViewportSize(size);
      for (const [direction, query] of [
        ['ltr', ''],
        ['rtl', '&lang=ar'],
      ] as const) {
        await page.goto(`/?company=${company}${query}`);
        await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'consent');
        await expect(page.locator('html')).toHaveAttribute('dir', direction);
        await inspectScreen(page, `guest-consent-${direction}-${name}`);
        await page.getByTestId('consent-decline').click();
        await expect(page.getByTestId('guest-page')).toHaveAttribute(
          'data-stage',
          'consentDeclined',
        );
        await inspectScreen(page, `guest-consent-declined-${direction}-${name}`);
      }
    });
  }
});
