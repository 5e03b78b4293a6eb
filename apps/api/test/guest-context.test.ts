import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  envelope,
  guestContextSchema,
  type FormField,
  type GeofenceArea,
} from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../src/db/seed.ts';
import {
  bearer,
  buildTestApp,
  INSIDE_EVERY_ZONE,
  loginGuest,
  loginStaff,
  newCallId,
  staffIdOf,
  type TestApp,
  type TestGuest,
} from './helper.ts';
import { square } from './areas.ts';
import { addConversation, after } from './report-fixture.ts';
import { guestWhoCalled as guestWhoCalledAt } from './welcome-call.ts';

const DEMO = SEEDED_COMPANY.demo;
const PHONE_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

describe('GET /api/calls/:callId/guest-context', () => {
  let t: TestApp;
  let agent: string;

  beforeAll(async () => {
    t = await buildTestApp();
    agent = await loginStaff(t.app, 'ada@frontdesk.demo');
  });
  afterAll(() => t.close());

  const context = (callId: string, token = agent) =>
    t.app.inject({
      method: 'GET',
      url: `/api/calls/${callId}/guest-context`,
      headers: bearer(token),
    });

  const guestWhoCalled = (answers: Record<string, string | boolean>) =>
    guestWhoCalledAt(t.app, DEMO, answers, PHONE_CHROME);

  /** Whether the demo company asks for the guest's location, as its admin would set it. */
  async function askLocation(ask: boolean) {
    await t.app.db
      .updateTable('companies')
      .set((eb) => ({
        settings: eb.fn('jsonb_set', [
          eb.ref('settings'),
          eb.val('{requestLocation}'),
          eb.val(JSON.stringify(ask)),
        ]),
      }))
      .where('id', '=', DEMO)
      .execute();
    t.app.companyDetails.forget(DEMO);
  }

  const guestRow = (guest: TestGuest) =>
    t.app.db
      .selectFrom('guests')
      .select(['id', 'username'])
      .where('username', '=', guest.username)
      .executeTakeFirstOrThrow();

  it("answers the guest's name, its answers by their options' labels, and its browser", async () => {
    const guest = await guestWhoCalled({
      name: 'Grace Hopper',
      email: 'grace@example.org',
      topic: 'existing-order',
    });
    const response = await context(guest.callId);
    expect(response.statusCode).toBe(200);
    const { data } = envelope(guestContextSchema).parse(response.json());
    expect(data).toMatchObject({
      callId: guest.callId,
      guestUsername: guest.username,
      name: 'Grace Hopper',
      previousCallCount: 0,
      previousCalls: [],
      // The demo company does not ask for the location.
      location: null,
      client: { browser: 'Chrome 131', os: 'Android 14', device: 'phone' },
    });
    expect(data.answers).toEqual([
      { name: 'name', label: 'Your name', value: 'Grace Hopper', verified: false },
      { name: 'email', label: 'E-mail', value: 'grace@example.org', verified: false },
      { name: 'topic', label: 'What is it about?', value: 'An existing order', verified: false },
    ]);
  });

  it('marks the answers the company’s site vouched for as verified', async () => {
    const guest = await guestWhoCalled({ name: 'Vee', email: 'vee@example.org', topic: 'other' });
    const { id } = await guestRow(guest);
    await t.app.db
      .updateTable('form_submissions')
      .set({ verified_fields: ['email'] })
      .where('guest_id', '=', id)
      .execute();
    const { data } = envelope(guestContextSchema).parse((await context(guest.callId)).json());
    expect(data.answers.map((a) => [a.name, a.verified])).toEqual([
      ['name', false],
      ['email', true],
      ['topic', false],
    ]);
  });

  it("lists the guest's earlier conversations, newest first, with outcome, rating and notes", async () => {
    const guest = await guestWhoCalled({ name: 'Ret', email: 'ret@example.org', topic: 'account' });
    const row = await guestRow(guest);
    const ada = await staffIdOf(t.app, 'ada@frontdesk.demo');
    const bo = await staffIdOf(t.app, 'bo@frontdesk.demo');
    const start = '2026-01-10T10:00:00Z';
    const [answered] = await addConversation(t.app.db, DEMO, row, [
      {
        at: new Date(start),
        categoryId: 2,
        answeredAt: after(start, 10),
        agentId: ada,
        endedAt: after(start, 60),
        transferToStaffId: bo,
        notes: 'Asked about a refund.',
      },
      {
        at: after(start, 61),
        categoryId: 2,
        answeredAt: after(start, 70),
        agentId: bo,
        endedAt: after(start, 300),
        rating: 4,
        notes: 'Refund sent.',
      },
    ]);
    const later = '2026-02-01T09:00:00Z';
    const [abandoned] = await addConversation(t.app.db, DEMO, row, [
      { at: new Date(later), categoryId: 1, endedAt: after(later, 20), callType: 'voice' },
    ]);
    const { data } = envelope(guestContextSchema).parse((await context(guest.callId)).json());
    expect(data.previousCallCount).toBe(2);
    expect(data.previousCalls).toEqual([
      {
        callId: abandoned?.callId,
        at: new Date(later).toISOString(),
        callType: 'voice',
        outcome: 'abandoned',
        category: 'Sales',
        agent: null,
        rating: null,
        notes: null,
      },
      {
        callId: answered?.callId,
        at: new Date(start).toISOString(),
        callType: 'video',
        outcome: 'answered',
        category: 'Support',
        agent: 'Bo Agent',
        rating: 4,
        notes: 'Asked about a refund.\n\nRefund sent.',
      },
    ]);
  });

  it('answers a ticked box as true or false, for the console to say in its language', async () => {
    const form = await t.app.db
      .selectFrom('forms')
      .select('fields')
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    const setFields = (fields: FormField[]) =>
      t.app.db
        .updateTable('forms')
        .set({ fields: JSON.stringify(fields) })
        .where('id', '=', 1)
        .execute();
    await setFields([
      ...form.fields,
      { type: 'checkbox', name: 'callback', label: 'Call me back', required: false },
      { type: 'checkbox', name: 'newsletter', label: 'Send me news', required: false },
    ]);
    try {
      const guest = await guestWhoCalled({
        name: 'Tick',
        email: 'tick@example.org',
        topic: 'other',
        callback: true,
        newsletter: false,
      });
      const { data } = envelope(guestContextSchema).parse((await context(guest.callId)).json());
      expect(data.answers.slice(3)).toEqual([
        { name: 'callback', label: 'Call me back', value: true, verified: false },
        { name: 'newsletter', label: 'Send me news', value: false, verified: false },
      ]);
    } finally {
      await setFields(form.fields);
    }
  });

  it('answers where the guest passed the service-area check, how precisely, and in which of the company’s zones, when the company asks for it', async () => {
    await askLocation(true);
    const seeded = await t.app.db
      .selectFrom('geofence_zones')
      .select(['name', 'area'])
      .where('company_id', '=', DEMO)
      .execute();
    const setZones = async (zones: { name: string; area: GeofenceArea }[]) => {
      await t.app.db.deleteFrom('geofence_zones').where('company_id', '=', DEMO).execute();
      if (zones.length === 0) return;
      await t.app.db
        .insertInto('geofence_zones')
        .values(
          zones.map((zone) => ({
            company_id: DEMO,
            name: zone.name,
            area: JSON.stringify(zone.area),
          })),
        )
        .execute();
    };
    try {
      const guest = await guestWhoCalled({ name: 'Lo', email: 'lo@example.org', topic: 'other' });
      const location = async () =>
        envelope(guestContextSchema).parse((await context(guest.callId)).json()).data.location;
      // In the demo's one zone; the guest page's check said no accuracy.
      expect(await location()).toMatchObject({
        ...INSIDE_EVERY_ZONE,
        accuracy: null,
        serviceArea: { inside: true, zone: 'Europe' },
      });
      // A company that keeps no zones serves everywhere.
      await setZones([]);
      expect((await location())?.serviceArea).toEqual({ inside: true, zone: null });

      await setZones([
        { name: 'Paris', area: square(2.2, 48.8, 0.5) },
        { name: 'Central London', area: square(-0.2, 51.45, 0.5) },
      ]);
      const checked = await t.app.inject({
        method: 'PUT',
        url: '/api/geo-fence/check',
        headers: bearer(guest.token),
        body: { ...INSIDE_EVERY_ZONE, accuracy: '35.5', companyID: DEMO },
      });
      expect(checked.statusCode, checked.body).toBe(200);
      expect(await location()).toMatchObject({
        ...INSIDE_EVERY_ZONE,
        accuracy: 35.5,
        serviceArea: { inside: true, zone: 'Central London' },
      });

      // The company has since stopped serving London: the panel says so.
      await setZones([{ name: 'Paris', area: square(2.2, 48.8, 0.5) }]);
      expect((await location())?.serviceArea).toEqual({ inside: false, zone: null });
    } finally {
      await setZones(seeded);
      await askLocation(false);
    }
  });

  it('refuses an accuracy that is no number of metres with 400 naming the field', async () => {
    const guest = await loginGuest(t.app, DEMO, undefined, { checks: false });
    const checked = await t.app.inject({
      method: 'PUT',
      url: '/api/geo-fence/check',
      headers: bearer(guest.token),
      body: { ...INSIDE_EVERY_ZONE, accuracy: '-3', companyID: DEMO },
    });
    expect(checked.statusCode).toBe(400);
    expect(checked.body).toContain('accuracy');
  });

  it('refuses a malformed call id with 400 naming the field', async () => {
    const response = await context('not a call id');
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('callId');
  });

  it('answers 404 for a call that does not exist', async () => {
    const guest = await loginGuest(t.app, DEMO, undefined, { checks: false });
    expect((await context(newCallId(guest))).statusCode).toBe(404);
  });
});
