import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  callSummarySchema,
  colleagueSchema,
  envelope,
  type AgentAvailability,
} from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../src/db/seed.ts';
import {
  buildTestApp,
  callApi,
  guestWithCall,
  loginGuest,
  loginStaff,
  setCompanySettings,
  type TestApp,
} from './helper.ts';

/** The shortest turn the API accepts: the rotation tests wait through a few. */
const OFFER_MS = 1000;
const company = SEEDED_COMPANY.aroundTheClock;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the team (/api/staff) and round robin (offer on GET /api/calls)', () => {
  let t: TestApp;
  /** Cy and Di are the agents of company 12; Ada works for company 5. */
  let cy: string;
  let di: string;
  let ada: string;
  let cyNick: string;
  let diNick: string;

  beforeAll(async () => {
    t = await buildTestApp({ ROUND_ROBIN_OFFER_MS: String(OFFER_MS) });
    [cy, di, ada] = await Promise.all([
      loginStaff(t.app, 'cy@frontdesk.demo'),
      loginStaff(t.app, 'di@frontdesk.demo'),
      loginStaff(t.app, 'ada@frontdesk.demo'),
    ]);
    const staff = envelope(colleagueSchema.array()).parse(
      (await callApi(t.app, 'GET', 'staff', undefined, cy)).json(),
    ).data;
    const nickOf = (name: string) => staff.find((s) => s.name === name)?.jabberUsername ?? '';
    [cyNick, diNick] = [nickOf('Cy Agent'), nickOf('Di Agent')];
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await sql`update staff set availability = 'away', availability_at = null`.execute(t.app.db);
    await sql`update call_reports set ended_at = now(), end_reason = 'abandoned' where ended_at is null`.execute(
      t.app.db,
    );
  });

  const report = (token: string, status: AgentAvailability) =>
    callApi(t.app, 'PUT', 'staff/me/availability', { status }, token);
  /** A guest of company 12 waiting in Sales; answers its call id. */
  const newWaitingCall = async () => (await guestWithCall(t.app, company, 10)).callId;
  const offerOf = async (callId: string, token = cy) => {
    const response = await callApi(t.app, 'GET', 'calls?status=waiting', undefined, token);
    expect(response.statusCode).toBe(200);
    const calls = envelope(callSummarySchema.array()).parse(response.json()).data;
    return calls.find((call) => call.callId === callId)?.offer;
  };

  describe('GET /api/staff', () => {
    it("lists the caller's company's staff with their nicks, and no one else's", async () => {
      const response = await callApi(t.app, 'GET', 'staff', undefined, cy);
      expect(response.statusCode).toBe(200);
      const staff = envelope(colleagueSchema.array()).parse(response.json()).data;
      expect(staff).toEqual([
        { id: expect.any(Number), name: 'Cy Agent', jabberUsername: cyNick, role: 'agent' },
        { id: expect.any(Number), name: 'Di Agent', jabberUsername: diNick, role: 'agent' },
        {
          id: expect.any(Number),
          name: 'Zoe Admin',
          jabberUsername: expect.any(String),
          role: 'admin',
        },
      ]);
      expect(cyNick).toMatch(/^staff-\d+$/);
      // SECURITY: no e-mail addresses, and only one's own company.
      expect(response.body).not.toContain('@');
      const fromAda = envelope(colleagueSchema.array()).parse(
        (await callApi(t.app, 'GET', 'staff', undefined, ada)).json(),
      ).data;
      expect(fromAda.map((s) => s.name)).not.toContain('Cy Agent');
    });

    it('is for staff only', async () => {
      const guest = await loginGuest(t.app, company);
      expect((await callApi(t.app, 'GET', 'staff', undefined)).statusCode).toBe(401);
      expect((await callApi(t.app, 'GET', 'staff', undefined, guest.token)).statusCode).toBe(403);
      expect((await report(guest.token, 'available')).statusCode).toBe(403);
    });
  });

  describe('PUT /api/staff/me/availability', () => {
    it('answers 204 and refuses what is not a status (400)', async () => {
      expect((await report(cy, 'busy')).statusCode).toBe(204);
      const wrong = await callApi(t.app, 'PUT', 'staff/me/availability', { status: 'gone' }, cy);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error.fields).toHaveProperty('status');
    });
  });

  describe('round robin', () => {
    it('offers a waiting call to nobody while no agent is available', async () => {
      const callId = await newWaitingCall();
      expect(await offerOf(callId)).toBeNull();
      await report(cy, 'busy');
      await report(di, 'away');
      expect(await offerOf(callId)).toBeNull();
    });

    it('offers the call to one available agent, then to the next after each turn', async () => {
      await Promise.all([report(cy, 'available'), report(di, 'available')]);
      const callId = await newWaitingCall();
      const first = await offerOf(callId);
      expect(first?.agentJabberUsername).toMatch(new RegExp(`^(${cyNick}|${diNick})$`));
      // Every agent is told the same offer.
      expect(await offerOf(callId, di)).toEqual(first);
      const other = first?.agentJabberUsername === cyNick ? diNick : cyNick;
      const until = Date.parse(first?.until ?? '');
      expect(until - Date.now()).toBeLessThanOrEqual(OFFER_MS);

      await sleep(until - Date.now() + 50);
      const second = await offerOf(callId);
      expect(second?.agentJabberUsername).toBe(other);
      expect(Date.parse(second?.until ?? '')).toBe(until + OFFER_MS);

      await sleep(OFFER_MS);
      expect((await offerOf(callId))?.agentJabberUsername).toBe(first?.agentJabberUsername);
    });

    it('starts consecutive calls with different agents', async () => {
      await Promise.all([report(cy, 'available'), report(di, 'available')]);
      const [a, b] = [await newWaitingCall(), await newWaitingCall()];
      const [offerA, offerB] = await Promise.all([offerOf(a), offerOf(b)]);
      // The rotation starts at the call's report id, and these two are consecutive.
      expect(offerA?.agentJabberUsername).not.toBe(offerB?.agentJabberUsername);
    });

    it('skips agents who are away, busy or have not reported lately', async () => {
      await Promise.all([report(cy, 'available'), report(di, 'busy')]);
      const callId = await newWaitingCall();
      expect((await offerOf(callId))?.agentJabberUsername).toBe(cyNick);
      await sleep(OFFER_MS + 50);
      expect((await offerOf(callId))?.agentJabberUsername).toBe(cyNick);

      // A console that stopped reporting (closed without signing out) is offered nothing.
      await sql`update staff set availability_at = now() - interval '1 hour'`.execute(t.app.db);
      expect(await offerOf(callId)).toBeNull();
    });

    it('offers nothing to a member who signed out or was deactivated since reporting', async () => {
      await Promise.all([report(cy, 'available'), report(di, 'available')]);
      const callId = await newWaitingCall();
      expect(await offerOf(callId)).not.toBeNull();
      // Di's console closes by signing out; Cy is deactivated. Both reports are still fresh.
      await callApi(t.app, 'POST', 'auth/logout', undefined, di);
      await sql`update staff set active = false where email = 'cy@frontdesk.demo'`.execute(
        t.app.db,
      );
      try {
        // Asked by Zoe, company 12's admin, who is not available herself.
        expect(await offerOf(callId, await loginStaff(t.app, 'zoe@frontdesk.demo'))).toBeNull();
      } finally {
        await sql`update staff set active = true where email = 'cy@frontdesk.demo'`.execute(
          t.app.db,
        );
        [cy, di] = await Promise.all([
          loginStaff(t.app, 'cy@frontdesk.demo'),
          loginStaff(t.app, 'di@frontdesk.demo'),
        ]);
      }
    });

    it('offers nothing when the company does not use round robin', async () => {
      await Promise.all([report(cy, 'available'), report(di, 'available')]);
      const callId = await newWaitingCall();
      await setCompanySettings(t.app, company, { roundRobin: false });
      try {
        expect(await offerOf(callId)).toBeNull();
      } finally {
        await setCompanySettings(t.app, company, { roundRobin: true });
      }
    });
  });
});
