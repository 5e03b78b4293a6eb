import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import {
  buildTestApp,
  callApi,
  INSIDE_EVERY_ZONE,
  loginGuest,
  newBrowserUsername,
  newCallId,
  passCompanyChecks,
  type TestApp,
  type TestGuest,
} from '../helper.ts';

/** Paris: outside Greater London, the geofenced company's only area. */
const PARIS = { lat: 48.8566, lng: 2.3522 };

/**
 * Attack: a guest skips the checks its page makes before a call (the timetable, the geofence, the
 * welcome form) and reports a call straight to the API. Through the public REST interface only;
 * each refusal names its reason, and nothing is recorded for a refused call.
 */
describe("attack: skipping the company's checks in the browser", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  /** A registered, logged-in guest that has made none of the page's checks. */
  const bareGuest = (company: number) =>
    loginGuest(t.app, company, newBrowserUsername(), { checks: false });
  const add = (who: TestGuest, company: number, callId = newCallId(who)) =>
    callApi(
      t.app,
      'POST',
      'call-report/add',
      { call_id: callId, company, source: 'site' },
      who.token,
    );
  const checkLocation = (who: TestGuest, company: number, where: { lat: number; lng: number }) =>
    callApi(t.app, 'PUT', 'geo-fence/check', { ...where, companyID: company }, who.token);
  const reportsOf = async (callId: string) =>
    t.app.db.selectFrom('call_reports').select('id').where('call_id', '=', callId).execute();

  it('a closed company refuses the call (out_of_hours) and records nothing', async () => {
    const guest = await loginGuest(t.app, SEEDED_COMPANY.alwaysClosed);
    const callId = newCallId(guest);
    const refused = await add(guest, SEEDED_COMPANY.alwaysClosed, callId);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('out_of_hours');
    expect(await reportsOf(callId)).toEqual([]);
  });

  it('an inactive company refuses the call (company_inactive)', async () => {
    const guest = await bareGuest(SEEDED_COMPANY.inactive);
    const refused = await add(guest, SEEDED_COMPANY.inactive);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('company_inactive');
  });

  it('a geofenced company refuses a guest who never checked its location', async () => {
    const guest = await bareGuest(SEEDED_COMPANY.geofenced);
    const callId = newCallId(guest);
    const refused = await add(guest, SEEDED_COMPANY.geofenced, callId);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('outside_geofence');
    expect(await reportsOf(callId)).toEqual([]);
  });

  it('a position outside the area, or one that moved out after a pass, gets no call', async () => {
    const guest = await bareGuest(SEEDED_COMPANY.geofenced);
    expect((await checkLocation(guest, SEEDED_COMPANY.geofenced, PARIS)).statusCode).toBe(403);
    expect((await add(guest, SEEDED_COMPANY.geofenced)).json().error.code).toBe('outside_geofence');

    expect(
      (await checkLocation(guest, SEEDED_COMPANY.geofenced, INSIDE_EVERY_ZONE)).statusCode,
    ).toBe(200);
    expect((await checkLocation(guest, SEEDED_COMPANY.geofenced, PARIS)).statusCode).toBe(403);
    expect((await add(guest, SEEDED_COMPANY.geofenced)).statusCode).toBe(403);
  });

  it('a pass older than an hour no longer counts; a fresh one lets the call through', async () => {
    const guest = await bareGuest(SEEDED_COMPANY.geofenced);
    await passCompanyChecks(t.app, SEEDED_COMPANY.geofenced, guest);
    await t.app.db
      .updateTable('guests')
      .set({ inside_zone_at: new Date(Date.now() - 61 * 60 * 1000) })
      .where('username', '=', guest.username)
      .execute();
    expect((await add(guest, SEEDED_COMPANY.geofenced)).json().error.code).toBe('outside_geofence');
    await checkLocation(guest, SEEDED_COMPANY.geofenced, INSIDE_EVERY_ZONE);
    const added = await add(guest, SEEDED_COMPANY.geofenced);
    expect(added.statusCode).toBe(201);
    expect(added.json().data.status).toBe('ok');
  });

  it("another company's guest cannot pass the geofence for its own company's guest", async () => {
    const outsider = await bareGuest(SEEDED_COMPANY.demo);
    const checked = await checkLocation(outsider, SEEDED_COMPANY.geofenced, INSIDE_EVERY_ZONE);
    expect(checked.statusCode).toBe(403);
    expect(checked.json().error.code).toBe('other_company');
  });

  it('a company with a welcome form refuses a guest who has not answered it', async () => {
    const guest = await bareGuest(SEEDED_COMPANY.demo);
    const callId = newCallId(guest);
    const refused = await add(guest, SEEDED_COMPANY.demo, callId);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({
      code: 'welcome_form_required',
      fields: { form: expect.any(String) },
    });
    expect(await reportsOf(callId)).toEqual([]);

    await passCompanyChecks(t.app, SEEDED_COMPANY.demo, guest);
    expect((await add(guest, SEEDED_COMPANY.demo, callId)).statusCode).toBe(201);
  });
});
