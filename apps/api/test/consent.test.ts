import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { companyDetailsSchema, envelope, guestLoginSchema } from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../src/db/seed.ts';
import {
  bearer,
  buildTestApp,
  callApi,
  loginGuest,
  loginStaff,
  newBrowserUsername,
  newCallId,
  type TestApp,
} from './helper.ts';

const company = SEEDED_COMPANY.aroundTheClock;

/** decision 0030: the consent settings, the consent kept with the guest, the recording choice. */
describe('consent', () => {
  let t: TestApp;
  let zoe: string;
  beforeAll(async () => {
    t = await buildTestApp();
    zoe = await loginStaff(t.app, 'zoe@frontdesk.demo');
  });
  afterAll(() => t.close());

  const patch = (body: object) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/company/${company}`,
      body,
      headers: bearer(zoe),
    });
  const publicDetails = async () =>
    envelope(companyDetailsSchema).parse(
      (await t.app.inject({ method: 'GET', url: `/api/company/${company}` })).json(),
    ).data;
  /** Registers a browser (with `consent` when given): its credential. */
  const register = async (consent?: true) => {
    const registered = await callApi(t.app, 'POST', 'guest-auth/register', {
      username: newBrowserUsername(),
      companyId: company,
      ...(consent ? { consent } : {}),
    });
    expect(registered.statusCode).toBe(201);
    return (registered.json().data as { credential: string }).credential;
  };
  /** Logs a browser in with its credential: the login's answer. */
  const login = async (credential: string) => {
    const answer = await callApi(t.app, 'POST', 'guest-auth/login', {
      credential,
      companyId: company,
    });
    expect(answer.statusCode).toBe(200);
    return envelope(guestLoginSchema).parse(answer.json()).data;
  };
  const registerAndLogin = async (consent?: true) => login(await register(consent));

  it('an admin asks for consent with a privacy notice on https only, and guest pages see it', async () => {
    const plain = await patch({
      consentRequired: true,
      privacyNoticeUrl: 'http://shop.example/privacy',
    });
    expect(plain.statusCode).toBe(400);
    expect(plain.json().error.fields).toHaveProperty('privacyNoticeUrl');
    expect((await publicDetails()).consentRequired).toBe(false);

    const saved = await patch({
      consentRequired: true,
      consentText: 'We keep your answers and the call for 30 days.',
      privacyNoticeUrl: 'https://shop.example/privacy',
    });
    expect(saved.statusCode).toBe(200);
    t.app.companyDetails.forget(company);
    expect(await publicDetails()).toMatchObject({
      consentRequired: true,
      consentText: 'We keep your answers and the call for 30 days.',
      privacyNoticeUrl: 'https://shop.example/privacy',
      recordingOptional: false,
    });
  });

  it('keeps the consent and its time with the guest, and the login tells the page', async () => {
    const before = Date.now();
    const consented = await registerAndLogin(true);
    const after = Date.now();
    expect(consented.consentGivenAt).not.toBeNull();
    const given = Date.parse(consented.consentGivenAt ?? '');
    expect(given).toBeGreaterThanOrEqual(before - 1000);
    expect(given).toBeLessThanOrEqual(after + 1000);
    const row = await t.app.db
      .selectFrom('guests')
      .select('consent_given_at')
      .where('username', '=', consented.username)
      .executeTakeFirstOrThrow();
    expect(row.consent_given_at?.toISOString()).toBe(consented.consentGivenAt);

    // A company that does not ask: the guest registers as before, with no consent kept.
    await patch({ consentRequired: false });
    const unasked = await registerAndLogin();
    expect(unasked.consentGivenAt).toBeNull();
  });

  it('logs in a guest registered before the company asked without writing about it until it consents', async () => {
    await patch({ consentRequired: false });
    onTestFinished(async () => {
      await patch({ consentRequired: false });
    });
    const credential = await register();
    const storedRow = (username: string) =>
      t.app.db
        .selectFrom('guests')
        .selectAll()
        .where('username', '=', username)
        .executeTakeFirstOrThrow();
    // Its browser logged in before: the row has a last login the next one must leave alone.
    const { username } = await login(credential);
    const before = await storedRow(username);
    expect(before.last_login_at).not.toBeNull();

    await patch({
      consentRequired: true,
      consentText: 'We keep your answers and the call for 30 days.',
      privacyNoticeUrl: 'https://shop.example/privacy',
    });
    // The page logs the kept registration in to learn that it has no consent, and asks.
    const unconsented = await login(credential);
    expect(unconsented).toMatchObject({ username, consentGivenAt: null });
    expect(await storedRow(username)).toEqual(before);

    // Its acceptance registers a new guest with consent (decision 0030), whose login is stamped.
    const consented = await registerAndLogin(true);
    expect(consented.consentGivenAt).not.toBeNull();
    expect((await storedRow(consented.username)).last_login_at).not.toBeNull();
  });

  it("keeps the guest's choice to call unrecorded with the call, through a hold", async () => {
    await patch({ recordCalls: true, recordingOptional: true });
    t.app.companyDetails.forget(company);
    const guest = await loginGuest(t.app, company);
    const callId = newCallId(guest);
    const added = await callApi(
      t.app,
      'POST',
      'call-report/add',
      { call_id: callId, company, source: 'site', category_id: 10, recording: 'declined' },
      guest.token,
    );
    expect(added.statusCode).toBe(201);
    const heldId = newCallId(guest);
    const held = await callApi(
      t.app,
      'POST',
      'call-report/hold-call',
      { origin_call_id: callId, current_call_id: callId, new_call_id: heldId },
      guest.token,
    );
    expect(held.statusCode).toBe(201);
    const legs = await t.app.db
      .selectFrom('call_reports')
      .select(['call_id', 'recording_declined'])
      .where('call_id', 'in', [callId, heldId])
      .orderBy('id')
      .execute();
    expect(legs).toEqual([
      { call_id: callId, recording_declined: true },
      { call_id: heldId, recording_declined: true },
    ]);
  });
});
