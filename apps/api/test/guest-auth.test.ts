import { importJWK, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  envelope,
  formatGuestUsername,
  guestDetailsSchema,
  guestLoginSchema,
  guestRegistrationSchema,
} from '@frontdesk/protocol';
import { BLOCKED_FINGERPRINT, SEEDED_COMPANY } from '../src/db/seed.ts';
import {
  bearer,
  buildTestApp,
  loginGuest,
  loginStaff,
  newGuestUsername,
  type TestApp,
} from './helper.ts';

describe('guest auth', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const post = (path: string, body: unknown) =>
    t.app.inject({ method: 'POST', url: `/api/guest-auth/${path}`, body: body as object });

  describe('POST /api/guest-auth/register', () => {
    it('answers 201 with the jabber username, the username and the rooms of the company', async () => {
      const username = newGuestUsername();
      const response = await post('register', { username, companyId: SEEDED_COMPANY.demo });
      expect(response.statusCode).toBe(201);
      const { data } = envelope(guestRegistrationSchema).parse(response.json());
      expect(data.username).toBe(username);
      expect(data.jabberusername).toMatch(/^g5-[a-z0-9_]+-[0-9a-f]{10}$/);
      expect(data.guestRooms.map((r) => r.jid)).toEqual([
        'frontdesk-demo@conference.frontdesk.localhost',
        'frontdesk-demo-sales@conference.frontdesk.localhost',
        'frontdesk-demo-support@conference.frontdesk.localhost',
        'frontdesk-demo-billing@conference.frontdesk.localhost',
      ]);
      const { room_password } = await t.app.db
        .selectFrom('companies')
        .select('room_password')
        .where('id', '=', SEEDED_COMPANY.demo)
        .executeTakeFirstOrThrow();
      expect(room_password).toMatch(/^[a-z2-7]{26}$/);
      expect(data.guestRooms.every((r) => r.password === room_password)).toBe(true);
    });

    it('is idempotent: the same username gets 201 and the same jabber username again', async () => {
      const body = { username: newGuestUsername(), companyId: SEEDED_COMPANY.demo };
      const first = await post('register', body);
      const second = await post('register', body);
      expect(second.statusCode).toBe(201);
      expect(second.json()).toEqual(first.json());
    });

    it('keeps one browser apart at two companies', async () => {
      const username = newGuestUsername();
      const at = async (companyId: number) =>
        (await post('register', { username, companyId })).json().data.jabberusername;
      expect(await at(SEEDED_COMPANY.demo)).not.toBe(await at(SEEDED_COMPANY.arabic));
    });

    it('answers an unknown company with 404', async () => {
      const response = await post('register', { username: newGuestUsername(), companyId: 404 });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('company_not_found');
    });

    it.each([
      ['a username without a suffix', { username: 'abcdefgh', companyId: 5 }, 'username'],
      ['a username with a short suffix', { username: 'abcdefgh_123', companyId: 5 }, 'username'],
      ['a username with "--"', { username: 'abcdefgh--12345678', companyId: 5 }, 'username'],
      ['a company id as text', { username: 'abcdefgh_12345678', companyId: '5' }, 'companyId'],
      ['no company', { username: 'abcdefgh_12345678' }, 'companyId'],
      ['an unknown field', { username: 'abcdefgh_12345678', companyId: 5, admin: true }, 'admin'],
    ])('refuses %s with 400 naming the field', async (_name, body, field) => {
      const response = await post('register', body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
      expect(Object.keys(response.json().error.fields)).toEqual([field]);
    });

    it.each([
      ['malformed JSON', 'application/json', '{"username": ', 400, 'invalid_json'],
      ['a body that is not JSON', 'application/xml', '<guest/>', 415, 'unsupported_media_type'],
    ])('refuses %s with a clear %i', async (_name, contentType, payload, status, code) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/guest-auth/register',
        headers: { 'content-type': contentType },
        payload,
      });
      expect(response.statusCode).toBe(status);
      expect(response.json().error.code).toBe(code);
    });

    it('refuses a body over the size limit with 413', async () => {
      const response = await post('register', {
        username: 'x'.repeat(2 * 1024 * 1024),
        companyId: 5,
      });
      expect(response.statusCode).toBe(413);
      expect(response.json().error.code).toBe('body_too_large');
    });

    it('limits registrations per address (429)', async () => {
      const register = () =>
        t.app.inject({
          method: 'POST',
          url: '/api/guest-auth/register',
          body: { username: newGuestUsername(), companyId: 5 },
          remoteAddress: '10.20.30.40',
        });
      const statuses = [];
      for (let i = 0; i < 31; i += 1) statuses.push((await register()).statusCode);
      expect(statuses.filter((s) => s === 201)).toHaveLength(30);
      expect(statuses.at(-1)).toBe(429);
    });
  });

  describe('POST /api/guest-auth/login', () => {
    it('hands out an access token, an XMPP password for the guest JID and a Janus token', async () => {
      const username = newGuestUsername();
      await post('register', { username, companyId: SEEDED_COMPANY.demo });
      const response = await post('login', { username, companyId: SEEDED_COMPANY.demo });
      expect(response.statusCode).toBe(200);
      const { data } = envelope(guestLoginSchema).parse(response.json());
      expect(data.xmpp.jid).toBe(`${data.jabberusername}@frontdesk.localhost`);
      expect(data.janusToken).toMatch(/^\d+,janus,janus\.plugin\.videoroom:[A-Za-z0-9+/]+=*$/);
      const key = await importJWK({ kty: 'oct', alg: 'HS256', k: t.config.secrets.xmppJwt });
      const { payload } = await jwtVerify(data.xmpp.password, key);
      expect(payload.jid).toBe(data.xmpp.jid);
      // The tokens outlive a long call (12 hours).
      const hoursLeft = (Date.parse(data.expiresAt) - Date.now()) / 3_600_000;
      expect(hoursLeft).toBeGreaterThan(11.9);
      expect(payload.exp).toBe(Math.floor(Date.parse(data.expiresAt) / 1000));
    });

    it('refuses a guest that never registered with 401', async () => {
      const response = await post('login', { username: newGuestUsername(), companyId: 5 });
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('not_registered');
    });

    it('refuses a guest registered with another company with 401', async () => {
      const username = newGuestUsername();
      await post('register', { username, companyId: SEEDED_COMPANY.demo });
      const response = await post('login', { username, companyId: SEEDED_COMPANY.arabic });
      expect(response.statusCode).toBe(401);
    });

    it('refuses a malformed body with 400 naming the field', async () => {
      const response = await post('login', { username: 42, companyId: 5 });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toHaveProperty('username');
    });
  });

  describe('GET /api/guest-auth/guestDetails', () => {
    const details = (username: string, token?: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/guest-auth/guestDetails?username=${encodeURIComponent(username)}`,
        ...(token ? { headers: bearer(token) } : {}),
      });

    it("answers a guest's own details", async () => {
      const guest = await loginGuest(t.app, SEEDED_COMPANY.demo);
      const response = await details(guest.username, guest.token);
      expect(response.statusCode).toBe(200);
      const { data } = envelope(guestDetailsSchema).parse(response.json());
      expect(data).toMatchObject({ username: guest.username, companyId: 5, blocked: false });
      expect(data.lastLoginAt).not.toBeNull();
    });

    it('tells a guest on the block list that it is blocked', async () => {
      const username = formatGuestUsername(BLOCKED_FINGERPRINT, 'anysuffix1');
      const guest = await loginGuest(t.app, SEEDED_COMPANY.blockList, username);
      const response = await details(username, guest.token);
      expect(response.json().data.blocked).toBe(true);
    });

    it("lets an agent read any guest of the agent's company", async () => {
      const guest = await loginGuest(t.app, SEEDED_COMPANY.demo);
      const agent = await loginStaff(t.app, 'ada@frontdesk.demo');
      const response = await details(guest.username, agent);
      expect(response.statusCode).toBe(200);
    });

    it('does not find a guest of another company for an agent (404)', async () => {
      const guest = await loginGuest(t.app, SEEDED_COMPANY.arabic);
      const agent = await loginStaff(t.app, 'ada@frontdesk.demo');
      expect((await details(guest.username, agent)).statusCode).toBe(404);
    });

    it("refuses a guest reading another guest's details (403)", async () => {
      const [me, other] = await Promise.all([
        loginGuest(t.app, SEEDED_COMPANY.demo),
        loginGuest(t.app, SEEDED_COMPANY.demo),
      ]);
      const response = await details(other.username, me.token);
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('other_guest');
    });

    it('refuses a call without a token (401) or with a forged one (401)', async () => {
      const guest = await loginGuest(t.app, SEEDED_COMPANY.demo);
      expect((await details(guest.username)).json().error.code).toBe('unauthenticated');
      const forged = await details(guest.username, `${guest.token.slice(0, -4)}AAAA`);
      expect(forged.statusCode).toBe(401);
      expect(forged.json().error.code).toBe('invalid_token');
    });

    it('refuses a malformed username with 400', async () => {
      const guest = await loginGuest(t.app, SEEDED_COMPANY.demo);
      const response = await details('not a username', guest.token);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toHaveProperty('username');
    });
  });
});
