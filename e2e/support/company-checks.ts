import { minimalAnswers, routes, type ApiClient } from '@frontdesk/protocol';

/** A position in central London: inside every seeded company's service area. */
const CENTRAL_LONDON = { lat: 51.5074, lng: -0.1278 };

/**
 * What the guest page has a guest do before it may call, when the company asks for it (the API
 * refuses a call otherwise): answer the welcome form, and pass the geofence check from London.
 * For the guests the suites and the benchmark play without a browser.
 */
export async function passCompanyChecks(
  api: ApiClient,
  companyId: number,
  guest: { username: string; token: string },
): Promise<void> {
  const { data: company } = await api(routes.company, { params: { id: String(companyId) } });
  if (company.welcomeForm) {
    await api(routes.submitWelcomeForm, {
      token: guest.token,
      body: {
        company: companyId,
        guestUsername: guest.username,
        serviceType: 'Talk',
        form: company.welcomeForm.id,
        answers: minimalAnswers(company.welcomeForm),
      },
    });
  }
  if (company.requestLocation) {
    await api(routes.geofenceCheck, {
      token: guest.token,
      body: { ...CENTRAL_LONDON, companyID: companyId },
    });
  }
}
