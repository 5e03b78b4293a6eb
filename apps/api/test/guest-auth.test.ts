import { importJWK, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callReportAddedSchema,
  envelope,
  formatBrowserUsername,
  guestDetailsSchema,
  guestLoginSchema,
  guestRegistrationSchema,
} from '@frontdesk/protocol';
import { BLOCKED_FINGERPRINT, SEEDED_COMPANY } from '../src/db/seed.ts';
import { keyedFingerprint } from '../src/guests/guest-identity.ts';
import {
  bearer,
  buildTestApp,
  loginGuest,
  loginStaff,
  newBrowserUsername,
  passCompanyChecks,
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
    it('answers 201 with a public username, its jabber username and a secret credential', async () => {
      const browserUsername = newBrowserUsername();
      const response = await post('register', {
        username: browserUsername,
        companyId: SEEDED_COMPANY.demo,
      });
      expect(response.statusCode).toBe(201);
      const { data } = envelope(guestRegistrationSchema).parse(response.json());
      // SECURITY (decision 0006): nothing public is made from the browser's name.
      expect(data.username).toMatch(/^g[a-z2-7]{25}$/);
      expect(data.jabberusername).toBe(`g5-${data.username}`);
      expect(response.body).not.toContain(browserUsername.split('_')[0]);
      expect(data.credential).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const stored = await t.app.db
        .selectFrom('guests')
        .selectAll()
        .where('username', '=', data.username)
        .executeTakeFirstOrThrow();
      // The credential itself is stored nowhere; the fingerprint stays for the block list, as its
      // HMAC under the API's key (decision 0033).
      expect(JSON.stringify(stored)).not.toContain(data.credential);
      expect(stored.fingerprint).toBe(
        keyedFingerprint(t.config.secrets.guestFingerprint, browserUsername.split('_')[0] ?? ''),
      );
    });

    it('makes a new guest each time, with its own username and credential', async () => {
      const body = { username: newBrowserUsername(), companyId: SEEDED_COMPANY.demo };
      const first = envelope(guestRegistrationSchema).parse((await post('register', body)).json());
      const second = envelope(guestRegistrationSchema).parse((await post('register', body)).json());
      expect(second.data.username).not.toBe(first.data.username);
      expect(second.data.credential).not.toBe(first.data.credential);
    });

    it('answers an unknown company with 404', async () => {
      const response = await post('register', { username: newBrowserUsername(), companyId: 404 });
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
          body: { username: newBrowserUsername(), companyId: 5 },
          remoteAddress: '10.20.30.40',
        });
      const statuses = [];
      for (let i = 0; i < 31; i += 1) statuses.push((await register()).statusCode);
      expect(statuses.filter((s) => s === 201)).toHaveLength(30);
      expect(statuses.at(-1)).toBe(429);
    });
  });

  describe('POST /api/guest-auth/login', () => {
    const register = async (companyId: number) =>
      envelope(guestRegistrationSchema).parse(
        (await post('register', { username: newBrowserUsername(), companyId })).json(),
      ).data;

    it('exchanges the credential for a short-lived access token, and nothing for XMPP or Janus', async () => {
      const registered = await register(SEEDED_COMPANY.demo);
      const response = await post('login', {
        credential: registered.credential,
        companyId: SEEDED_COMPANY.demo,
      });
      expect(response.statusCode).toBe(200);
      const { data } = envelope(guestLoginSchema).parse(response.json());
      expect(data.username).toBe(registered.username);
      expect(data.jabberusername).toBe(registered.jabberusername);
      // Minutes, not hours: the guest page logs in again before it runs out.
      const minutesLeft = (Date.parse(data.accessTokenExpiresAt) - Date.now()) / 60_000;
      expect(minutesLeft).toBeGreaterThan(9.9);
      expect(minutesLeft).toBeLessThanOrEqual(10);
      // SECURITY: the chat and media servers (and TURN) come only with a live call.
      expect(response.json().data).not.toHaveProperty('xmpp');
      expect(response.json().data).not.toHaveProperty('janusToken');
    });

    it('hands the XMPP password and the Janus token with a call that is let through', async () => {
      const registered = await register(SEEDED_COMPANY.demo);
      const login = envelope(guestLoginSchema).parse(
        (await post('login', { credential: registered.credential, companyId: 5 })).json(),
      ).data;
      await passCompanyChecks(t.app, SEEDED_COMPANY.demo, {
        username: registered.username,
        token: login.access_token,
      });
      const added = await t.app.inject({
        method: 'POST',
        url: '/api/call-report/add',
        headers: bearer(login.access_token),
        body: { call_id: `${registered.username}--c1`, company: 5, source: 'site' },
      });
      expect(added.statusCode).toBe(201);
      const { services } = envelope(callReportAddedSchema).parse(added.json()).data;
      if (!services) throw new Error('no services with an ok call');
      expect(services.xmpp.jid).toBe(`${registered.jabberusername}@frontdesk.localhost`);
      expect(services.janusToken).toMatch(/^\d+,janus,janus\.plugin\.videoroom:[A-Za-z0-9+/]+=*$/);
      const key = await importJWK({ kty: 'oct', alg: 'HS256', k: t.config.secrets.xmppJwt });
      const { payload } = await jwtVerify(services.xmpp.password, key);
      expect(payload.jid).toBe(services.xmpp.jid);
      // The tokens outlive a long call (12 hours).
      const hoursLeft = (Date.parse(services.expiresAt) - Date.now()) / 3_600_000;
      expect(hoursLeft).toBeGreaterThan(11.9);
      expect(payload.exp).toBe(Math.floor(Date.parse(services.expiresAt) / 1000));
    });

    it('refuses a credential that no registration made with 401', async () => {
      const response = await post('login', { credential: 'A'.repeat(43), companyId: 5 });
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('not_registered');
    });

    it('refuses a credential of another company with 401', async () => {
      const registered = await register(SEEDED_COMPANY.demo);
      const response = await post('login', {
        credential: registered.credential,
        companyId: SEEDED_COMPANY.arabic,
      });
      expect(response.statusCode).toBe(401);
    });

    it('refuses a username in place of the credential with 400 naming the field', async () => {
      const registered = await register(SEEDED_COMPANY.demo);
      const response = await post('login', { username: registered.username, companyId: 5 });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().error.fields).sort()).toEqual(['credential', 'username']);
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
      const browserUsername = formatBrowserUsername(BLOCKED_FINGERPRINT, 'anysuffix1');
      const guest = await loginGuest(t.app, SEEDED_COMPANY.blockList, browserUsername);
      const response = await details(guest.username, guest.token);
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
