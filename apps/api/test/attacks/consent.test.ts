import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintJanusToken } from '@frontdesk/infra';
import { VIDEOROOM_PLUGIN, withPluginHandle } from '@frontdesk/media/server';
import { envelope, roomAccessSchema, type CompanySettings } from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import {
  buildTestApp,
  callApi,
  loginGuest,
  newBrowserUsername,
  newCallId,
  setCompanySettings,
  type TestApp,
  type TestGuest,
} from '../helper.ts';
import { startTestJanus, type TestJanus } from '../janus.ts';

const company = SEEDED_COMPANY.aroundTheClock;
/** Company 12's first category. */
const CATEGORY = 10;

/**
 * decision 0030: a company that asks for consent gets no guest row, no call and no recording of
 * anyone who did not give it — whatever a script sends instead of the guest page. Through the
 * public REST interface, with a real Janus to see whether a room records.
 */
describe('attack: getting around a company’s consent', () => {
  let janus: TestJanus;
  let t: TestApp;
  /** A guest of company 12 registered before it asked for consent. */
  let unconsented: TestGuest;

  const setSettings = (settings: Partial<CompanySettings>) =>
    setCompanySettings(t.app, company, settings);
  const register = (body: object) =>
    callApi(t.app, 'POST', 'guest-auth/register', { username: newBrowserUsername(), ...body });
  const addCall = (who: TestGuest, extra: object = {}, callId = newCallId(who)) =>
    callApi(
      t.app,
      'POST',
      'call-report/add',
      { call_id: callId, company, source: 'site', category_id: CATEGORY, ...extra },
      who.token,
    );
  const guestCount = async () =>
    Number(
      (
        await t.app.db
          .selectFrom('guests')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('company_id', '=', company)
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** A refused call leaves no report of itself. */
  const expectNoCallReport = async (callId: string) =>
    expect(
      await t.app.db
        .selectFrom('call_reports')
        .select('id')
        .where('call_id', '=', callId)
        .execute(),
    ).toEqual([]);
  /** Whether Janus records the room, as Janus itself lists it (private rooms: admin key). */
  const janusRecords = (room: string) =>
    withPluginHandle(
      { httpUrl: janus.janus.httpUrl, token: mintJanusToken(janus.tokenSecret, 60) },
      VIDEOROOM_PLUGIN,
      async (handle) => {
        const { list } = (await handle.message({ request: 'list', admin_key: janus.adminKey }))
          .data as { list: { room: string; record: boolean }[] };
        return list.find((listed) => listed.room === room)?.record;
      },
    );

  beforeAll(async () => {
    janus = await startTestJanus('attack-consent', [21400, 21410]);
    t = await buildTestApp(janus.env);
    unconsented = await loginGuest(t.app, company);
    await setSettings({ consentRequired: true, recordCalls: true, recordingOptional: true });
    t.app.companyDetails.forget(company);
  });
  afterAll(async () => {
    await t?.close();
    await janus?.stop();
  });

  it('a registration without consent is refused, naming the field, and stores no guest', async () => {
    const before = await guestCount();
    for (const body of [{ companyId: company }, { companyId: company, consent: false }]) {
      const refused = await register(body);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.fields).toHaveProperty('consent');
    }
    expect((await register({ companyId: company })).json().error.code).toBe('consent_required');
    expect(await guestCount()).toBe(before);
  });

  it('a guest who never consented is refused the call and its admission, and nothing is recorded', async () => {
    const callId = newCallId(unconsented);
    const refused = await addCall(unconsented, {}, callId);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('consent_required');
    const admission = await callApi(
      t.app,
      'POST',
      'call-report/admission',
      { company },
      unconsented.token,
    );
    expect(admission.statusCode).toBe(403);
    expect(admission.json().error.code).toBe('consent_required');
    await expectNoCallReport(callId);
  });

  it('the welcome answers of a guest who never consented are refused and not kept', async () => {
    const answersOf = () =>
      t.app.db
        .selectFrom('form_submissions')
        .innerJoin('guests', 'guests.id', 'form_submissions.guest_id')
        .select('form_submissions.id')
        .where('guests.username', '=', unconsented.username)
        .execute();
    // Those it sent before the company asked for consent stay until retention or erasure.
    const before = await answersOf();
    const form = await t.app.db
      .selectFrom('forms')
      .select('id')
      .where('company_id', '=', company)
      .where('kind', '=', 'welcome')
      .where('retired_at', 'is', null)
      .executeTakeFirst();
    const refused = await callApi(
      t.app,
      'POST',
      'form-submission',
      {
        company,
        guestUsername: unconsented.username,
        form: form?.id ?? 1,
        serviceType: 'Talk',
        answers: { email: 'someone@example.com' },
      },
      unconsented.token,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('consent_required');
    expect(await answersOf()).toEqual(before);
  });

  it('the location of a guest who never consented is checked but not kept', async () => {
    const checked = await callApi(
      t.app,
      'PUT',
      'geo-fence/check',
      { companyID: company, lat: 51.5, lng: -0.12, accuracy: 20 },
      unconsented.token,
    );
    expect(checked.statusCode).toBe(200);
    const kept = await t.app.db
      .selectFrom('guests')
      .select(['location_lat', 'location_lng', 'location_accuracy', 'inside_zone_at'])
      .where('username', '=', unconsented.username)
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({
      location_lat: null,
      location_lng: null,
      location_accuracy: null,
      inside_zone_at: null,
    });
  });

  it('nobody can consent for another guest: consent makes a new guest, the old one stays unconsented', async () => {
    const consenting = await loginGuest(t.app, company, undefined, { consent: true });
    expect((await addCall(consenting)).statusCode).toBe(201);
    // The consented guest's token reports no call in the unconsented guest's name.
    const posing = await addCall(consenting, {}, newCallId(unconsented));
    expect(posing.statusCode).toBe(403);
    const stored = await t.app.db
      .selectFrom('guests')
      .select(['username', 'consent_given_at'])
      .where('username', 'in', [consenting.username, unconsented.username])
      .execute();
    const consentOf = (username: string) =>
      stored.find((row) => row.username === username)?.consent_given_at;
    expect(consentOf(consenting.username)).toBeInstanceOf(Date);
    expect(consentOf(unconsented.username)).toBeNull();
    expect((await addCall(unconsented)).json().error.code).toBe('consent_required');
  });

  it('a call whose guest declined recording has a Janus room that does not record', async () => {
    const guest = await loginGuest(t.app, company, undefined, { consent: true });
    const declinedId = newCallId(guest);
    expect((await addCall(guest, { recording: 'declined' }, declinedId)).statusCode).toBe(201);
    const room = await callApi(t.app, 'POST', `calls/${declinedId}/room`, undefined, guest.token);
    expect(room.statusCode).toBe(200);
    expect(envelope(roomAccessSchema).parse(room.json()).data.recorded).toBe(false);
    expect(await janusRecords(declinedId)).toBe(false);

    // The same guest's next call, recording accepted, is recorded.
    const recordedId = newCallId(guest);
    expect((await addCall(guest, {}, recordedId)).statusCode).toBe(201);
    const recordedRoom = await callApi(
      t.app,
      'POST',
      `calls/${recordedId}/room`,
      undefined,
      guest.token,
    );
    expect(envelope(roomAccessSchema).parse(recordedRoom.json()).data.recorded).toBe(true);
    expect(await janusRecords(recordedId)).toBe(true);
  });

  it('declining recording where the company records every call is refused, naming the field', async () => {
    await setSettings({ recordingOptional: false });
    t.app.companyDetails.forget(company);
    try {
      const guest = await loginGuest(t.app, company, undefined, { consent: true });
      const callId = newCallId(guest);
      const refused = await addCall(guest, { recording: 'declined' }, callId);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.fields).toHaveProperty('recording');
      await expectNoCallReport(callId);
    } finally {
      await setSettings({ recordingOptional: true });
      t.app.companyDetails.forget(company);
    }
  });
});
