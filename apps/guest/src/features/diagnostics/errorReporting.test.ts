import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStore } from '../../app/store.ts';
import { company, offlineServices } from '../../test/render.tsx';
import { companyLoaded } from '../company/companySlice.ts';
import { stageReached } from '../flow/flowSlice.ts';
import { guestSignedIn } from '../guestAuth/guestAuthSlice.ts';
import { errorReportingOnDemand, reportingConsent } from './errorReporting.ts';
import { startSentry } from './sentry.ts';

// The SDK itself is proven in Chromium (e2e/tests/guest-error-reporting.spec.ts); here, when
// the page asks for it and what it hands over.
vi.mock('./sentry.ts', () => ({ startSentry: vi.fn() }));

const settings = { dsn: 'https://key@example.org/1', tunnel: '/api/monitoring' };
const sdkStarted = () => vi.mocked(startSentry).mock.calls;

function throwIn(target: EventTarget, error: Error) {
  target.dispatchEvent(new ErrorEvent('error', { error, message: error.message }));
}

/** Reporting on a page of a company that asks for no consent, as it is once its details came. */
function withoutConsentStep(page: EventTarget) {
  const reporting = errorReportingOnDemand(page);
  reporting.consent('given');
  return reporting;
}

describe('errorReportingOnDemand', () => {
  afterEach(() => vi.mocked(startSentry).mockClear());

  it('loads no SDK before an error or a call', async () => {
    const page = new EventTarget();
    withoutConsentStep(page).configure(settings);
    await vi.dynamicImportSettled();
    expect(sdkStarted()).toEqual([]);
  });

  it('sends an error met before the configuration arrived, once it says reporting is on', async () => {
    const page = new EventTarget();
    const reporting = withoutConsentStep(page);
    const early = new Error('before the configuration');
    throwIn(page, early);
    await vi.dynamicImportSettled();
    expect(sdkStarted()).toEqual([]);
    reporting.configure(settings);
    await vi.waitFor(() => expect(sdkStarted()).toEqual([[settings, [early]]]));
  });

  it('starts the SDK when a call starts, and then leaves the errors to it', async () => {
    const page = new EventTarget();
    const reporting = withoutConsentStep(page);
    reporting.configure(settings);
    reporting.callStarts();
    await vi.waitFor(() => expect(sdkStarted()).toEqual([[settings, []]]));
    throwIn(page, new Error('in the call'));
    reporting.callStarts();
    await vi.dynamicImportSettled();
    expect(sdkStarted()).toHaveLength(1);
  });

  it('forgets the errors and never loads the SDK when reporting is off', async () => {
    const page = new EventTarget();
    const reporting = withoutConsentStep(page);
    throwIn(page, new Error('kept until the configuration'));
    reporting.configure(null);
    reporting.callStarts();
    throwIn(page, new Error('after'));
    await vi.dynamicImportSettled();
    expect(sdkStarted()).toEqual([]);
  });

  it('holds no more than the first twenty errors met before the configuration', async () => {
    const page = new EventTarget();
    const reporting = withoutConsentStep(page);
    const errors = Array.from({ length: 25 }, (_, i) => new Error(`loop ${i}`));
    for (const error of errors) throwIn(page, error);
    reporting.configure(settings);
    await vi.waitFor(() => expect(sdkStarted()).toEqual([[settings, errors.slice(0, 20)]]));
  });

  // docs/privacy.md: where the company asks for consent, nothing leaves the page before it.
  it('holds the errors met before consent, and sends them once the guest consents', async () => {
    const page = new EventTarget();
    const reporting = errorReportingOnDemand(page);
    reporting.configure(settings);
    const onConsentStep = new Error('on the consent step');
    throwIn(page, onConsentStep);
    reporting.callStarts();
    await vi.dynamicImportSettled();
    expect(sdkStarted()).toEqual([]);
    reporting.consent('given');
    await vi.waitFor(() => expect(sdkStarted()).toEqual([[settings, [onConsentStep]]]));
  });

  it('drops what it held when the guest declines, and keeps nothing while declined', async () => {
    const page = new EventTarget();
    const reporting = errorReportingOnDemand(page);
    reporting.configure(settings);
    throwIn(page, new Error('on the consent step'));
    reporting.consent('refused');
    throwIn(page, new Error('after the decline'));
    // The guest changes its mind: back on the consent step, then agrees.
    reporting.consent('pending');
    const afterReconsidering = new Error('back on the consent step');
    throwIn(page, afterReconsidering);
    reporting.consent('given');
    await vi.waitFor(() => expect(sdkStarted()).toEqual([[settings, [afterReconsidering]]]));
  });

  it('loads no SDK for a guest who declined, even one who consents later without an error', async () => {
    const page = new EventTarget();
    const reporting = errorReportingOnDemand(page);
    reporting.configure(settings);
    throwIn(page, new Error('on the consent step'));
    reporting.consent('refused');
    reporting.consent('pending');
    reporting.consent('given');
    await vi.dynamicImportSettled();
    expect(sdkStarted()).toEqual([]);
  });

  it('holds no more than the first twenty errors met before consent', async () => {
    const page = new EventTarget();
    const reporting = errorReportingOnDemand(page);
    reporting.configure(settings);
    const errors = Array.from({ length: 25 }, (_, i) => new Error(`loop ${i}`));
    for (const error of errors) throwIn(page, error);
    reporting.consent('given');
    await vi.waitFor(() => expect(sdkStarted()).toEqual([[settings, errors.slice(0, 20)]]));
  });
});

describe('reportingConsent', () => {
  const login = {
    access_token: 'token-1',
    accessTokenExpiresAt: new Date(Date.now() + 600_000).toISOString(),
    username: `g${'b'.repeat(25)}`,
    jabberusername: `g5-g${'b'.repeat(25)}`,
    companyId: 5,
    consentGivenAt: new Date().toISOString(),
  };
  const page = { companyId: 5, serviceType: 'Talk', webview: false, parentOrigin: null } as const;

  it('is pending until the company is known, and given where it asks for no consent', () => {
    const store = createStore(page, offlineServices());
    expect(reportingConsent(store.getState())).toBe('pending');
    store.dispatch(companyLoaded(company()));
    expect(reportingConsent(store.getState())).toBe('given');
  });

  it('follows the consent step where the company asks for it', () => {
    const store = createStore(page, offlineServices());
    store.dispatch(companyLoaded(company({ consentRequired: true })));
    store.dispatch(stageReached('consent'));
    expect(reportingConsent(store.getState())).toBe('pending');
    store.dispatch(stageReached('consentDeclined'));
    expect(reportingConsent(store.getState())).toBe('refused');
    store.dispatch(stageReached('consent'));
    expect(reportingConsent(store.getState())).toBe('pending');
    // Accepted: the API registered the guest with its consent, and it is signed in.
    store.dispatch(guestSignedIn(login));
    expect(reportingConsent(store.getState())).toBe('given');
  });
});
