import { describe, expect, it } from 'vitest';
import type { CompanyDetails } from '@frontdesk/protocol';
import { answer, fakeApi, refusal, type FakeAnswer } from '@frontdesk/protocol/testing';
import type { GuestServices } from '../../app/services.ts';
import { createStore } from '../../app/store.ts';
import { Connections } from '../call/connections.ts';
import { company } from '../../test/render.tsx';
import { keepRegistration, keptRegistration } from '../guestAuth/identity.ts';
import { continueVisit, startVisit } from './startVisit.ts';
import { memoryStorage } from '../../test/memoryStorage.ts';

const GUEST = `g${'b'.repeat(25)}`;
const registration = {
  jabberusername: `g5-${GUEST}`,
  username: GUEST,
  credential: 'c'.repeat(43),
  guestRooms: [],
};
const login = {
  access_token: 'token-1',
  accessTokenExpiresAt: new Date(Date.now() + 600_000).toISOString(),
  username: GUEST,
  jabberusername: `g5-${GUEST}`,
  companyId: 5,
  consentGivenAt: null,
};
const welcomeForm = {
  id: 1,
  title: 'Before we start',
  fields: [{ type: 'text' as const, name: 'name', label: 'Name', required: true, maxLength: 100 }],
};

/**
 * The visit of a guest of company 5 against fake services: the API answers from `answers`
 * (company details from `details`, a registration and a login unless a test says otherwise),
 * the browser as `browser` says.
 */
async function visit(
  details: Partial<CompanyDetails>,
  answers: Record<string, FakeAnswer> = {},
  browser: Partial<GuestServices> = {},
) {
  const { api, requests } = fakeApi({
    'GET /company/5': answer(company(details)),
    'POST /guest-auth/register': answer(registration),
    'POST /guest-auth/login': answer(login),
    'POST /call-report/admission': answer({ status: 'ok' }),
    ...answers,
  });
  const services: GuestServices = {
    api,
    computeFingerprint: async () => 'fingerprint1',
    detectBot: async () => false,
    browserSupportsCalls: () => true,
    isOnline: () => true,
    readLocation: async () => ({ latitude: '51.5', longitude: '-0.12', accuracy: '20' }),
    applyBranding: () => undefined,
    storage: memoryStorage(),
    clientConfig: () => Promise.reject(new Error('no call in these tests')),
    loadCallAdapters: () => Promise.reject(new Error('no call in these tests')),
    connections: new Connections(),
    ...browser,
  };
  const store = createStore(
    { companyId: 5, serviceType: 'Talk', webview: false, parentOrigin: null },
    services,
  );
  await store.dispatch(startVisit());
  return { stage: store.getState().flow.stage, state: store.getState(), requests, services, store };
}

describe('startVisit: from page load to the first screen the guest acts on', () => {
  it('registers, signs in and keeps the registration for the next visit', async () => {
    const { stage, state, requests, services } = await visit({ previewScreen: true });
    expect(stage).toBe('preview');
    expect(state.guestAuth.username).toBe(GUEST);
    expect(requests.map((r) => r.route)).toEqual([
      'GET /company/5',
      'POST /guest-auth/register',
      'POST /guest-auth/login',
      'POST /call-report/admission',
    ]);
    expect(keptRegistration(services.storage, 5)).toEqual(registration);
  });

  it('signs in with the kept registration, and registers anew when the API no longer knows it', async () => {
    const storage = memoryStorage();
    keepRegistration(storage, 5, registration);
    const kept = await visit({}, {}, { storage });
    expect(kept.requests.map((r) => r.route)).not.toContain('POST /guest-auth/register');
    expect(kept.requests.find((r) => r.route === 'POST /guest-auth/login')?.body).toEqual({
      credential: registration.credential,
      companyId: 5,
    });

    const forgotten = await visit(
      {},
      { 'POST /guest-auth/login': refusal(401, 'unknown_credential') },
      { storage },
    );
    expect(forgotten.requests.map((r) => r.route)).toContain('POST /guest-auth/register');
    expect(forgotten.stage).toBe('failed');
  });

  it.each<[string, Partial<CompanyDetails>, Partial<GuestServices>, string]>([
    ['an automated browser', {}, { detectBot: async () => true }, 'bot'],
    ['a browser without WebRTC', {}, { browserSupportsCalls: () => false }, 'unsupported'],
    ['an inactive company', { activated: false }, {}, 'inactive'],
    [
      'a closed company',
      { schedule: { timeZone: 'UTC', hours: [], exceptions: [], openNow: false } },
      {},
      'schedule',
    ],
  ])('stops %s at its stage', async (_name, details, browser, stage) => {
    expect((await visit(details, {}, browser)).stage).toBe(stage);
  });

  it('checks the location the browser reports, and any failure means outside', async () => {
    const inside = await visit(
      { requestLocation: true },
      { 'PUT /geo-fence/check': answer({ inside: true }) },
    );
    expect(inside.stage).toBe('preview');
    const check = inside.requests.find((r) => r.route === 'PUT /geo-fence/check');
    // spec §3: the coordinates travel as the text the guest keeps; the accuracy beside them.
    expect(check?.body).toEqual({ lat: '51.5', lng: '-0.12', accuracy: '20', companyID: 5 });

    const outside = await visit(
      { requestLocation: true },
      { 'PUT /geo-fence/check': refusal(403, 'outside_geofence') },
    );
    expect(outside.stage).toBe('outofzone');
    expect(outside.state.geofence.reason).toBe('outside');

    const denied = await visit(
      { requestLocation: true },
      {},
      {
        readLocation: async () => {
          throw new Error('denied');
        },
      },
    );
    expect(denied.stage).toBe('outofzone');
    // A position the browser did not give is explained as such, and nothing is sent.
    expect(denied.state.geofence.reason).toBe('noLocation');
    expect(denied.requests.some((r) => r.route === 'PUT /geo-fence/check')).toBe(false);
  });

  it("knows the company's refusal before the welcome form and the camera", async () => {
    const admission = 'POST /call-report/admission';
    const lookup = 'POST /form-submission/get-submission';
    for (const status of ['blocked', 'outOfQuota'] as const) {
      const refused = await visit(
        { welcomeForm, previewScreen: true },
        { [admission]: answer({ status }), [lookup]: answer({}) },
      );
      expect(refused.stage).toBe(status);
      expect(refused.requests.find((r) => r.route === admission)?.body).toEqual({ company: 5 });
    }
    // The welcome form the API still waits for is the next stage anyway, not a refusal.
    const unanswered = await visit(
      { welcomeForm },
      { [admission]: refusal(403, 'welcome_form_required'), [lookup]: answer({}) },
    );
    expect(unanswered.stage).toBe('welcome');
    // A rule that changed since the company's details were read is shown at once.
    const closed = await visit({}, { [admission]: refusal(403, 'out_of_hours') });
    expect(closed.stage).toBe('schedule');
    // A check that fails lets the guest on: call-report/add decides when the call starts.
    const broken = await visit({ previewScreen: true }, { [admission]: refusal(500, 'internal') });
    expect(broken.stage).toBe('preview');
  });

  it('asks for the welcome form when the lookup answers {} or fails, and not once it is answered', async () => {
    const lookup = 'POST /form-submission/get-submission';
    const unanswered = await visit({ welcomeForm }, { [lookup]: answer({}) });
    expect(unanswered.stage).toBe('welcome');
    const failed = await visit({ welcomeForm }, { [lookup]: refusal(500, 'internal') });
    expect(failed.stage).toBe('welcome');
    const answered = await visit(
      { welcomeForm },
      {
        [lookup]: answer({
          id: 3,
          form: 1,
          serviceType: 'Talk',
          answers: { name: 'Ada' },
          createdAt: new Date().toISOString(),
        }),
      },
    );
    expect(answered.stage).toBe('preview');
  });

  it('shows the service as failed when the API cannot be reached', async () => {
    const { stage, state } = await visit(
      {},
      { 'GET /company/5': refusal(0, 'network', 'unreachable') },
    );
    expect(stage).toBe('failed');
    expect(state.flow.failure).toBe('unreachable');
  });
});

describe('startVisit: a company that asks for consent first (decision 0030)', () => {
  const asks = { consentRequired: true, previewScreen: true };
  const routesOf = (requests: { route: string }[]) => requests.map((r) => r.route);

  it('stops at the consent step before the fingerprint, the registration or the location', async () => {
    let fingerprinted = false;
    const located: string[] = [];
    const asked = await visit(
      { ...asks, requestLocation: true },
      {},
      {
        computeFingerprint: async () => {
          fingerprinted = true;
          return 'fingerprint1';
        },
        readLocation: async () => {
          located.push('asked');
          throw new Error('the location must not be asked before consent');
        },
      },
    );
    expect(asked.stage).toBe('consent');
    expect(routesOf(asked.requests)).toEqual(['GET /company/5']);
    expect(fingerprinted).toBe(false);
    expect(located).toEqual([]);
    expect(keptRegistration(asked.services.storage, 5)).toBeUndefined();
  });

  it('registers with the consent once the guest accepts, and goes on', async () => {
    const asked = await visit(asks);
    await asked.store.dispatch(continueVisit({ consent: true }));
    expect(asked.store.getState().flow.stage).toBe('preview');
    const register = asked.requests.find((r) => r.route === 'POST /guest-auth/register');
    expect(register?.body).toEqual({ username: expect.any(String), companyId: 5, consent: true });
  });

  it('asks a kept guest that never consented, and replaces it once the guest accepts', async () => {
    const storage = memoryStorage();
    keepRegistration(storage, 5, registration);
    const asked = await visit(asks, {}, { storage });
    expect(asked.stage).toBe('consent');
    expect(routesOf(asked.requests)).toEqual(['GET /company/5', 'POST /guest-auth/login']);
    await asked.store.dispatch(continueVisit({ consent: true }));
    expect(routesOf(asked.requests)).toContain('POST /guest-auth/register');

    // A guest that consented on an earlier visit is not asked again.
    const consented = await visit(
      asks,
      {
        'POST /guest-auth/login': answer({ ...login, consentGivenAt: new Date().toISOString() }),
      },
      { storage },
    );
    expect(consented.stage).toBe('preview');
    expect(routesOf(consented.requests)).not.toContain('POST /guest-auth/register');
  });
});
