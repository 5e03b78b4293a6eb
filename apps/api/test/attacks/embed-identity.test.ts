import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SHOP_ORIGIN, SEEDED_COMPANY } from '../../src/db/seed.ts';
import { signIdentity } from '../../src/companies/embed-identity.ts';
import {
  addCall,
  buildTestApp,
  callApi,
  loginGuest,
  loginStaff,
  type TestApp,
  type TestGuest,
} from '../helper.ts';

/**
 * The embed's signed identity (decision 0021), tried as an attacker would: a visitor who edits
 * the page, replays or forges tokens, or asks for the company's secret.
 */
const COMPANY = SEEDED_COMPANY.aroundTheClock;
/** The around-the-clock company's welcome form (seed.ts: id 4, name/email/topic). */
const FORM = 4;
const signed = { name: 'Ada Lovelace', email: 'ada@example.org' };
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

describe('embed identity and secret', () => {
  let t: TestApp;
  let admin: string;
  let secret: string;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await loginStaff(t.app, 'zoe@frontdesk.demo');
    const made = await callApi(t.app, 'POST', `company/${COMPANY}/embed-secret`, undefined, admin);
    expect(made.statusCode).toBe(200);
    secret = made.json().data.secret;
  });
  afterAll(() => t.close());

  const submit = (guest: TestGuest, answers: object, identity?: string) =>
    callApi(
      t.app,
      'POST',
      'form-submission',
      {
        company: COMPANY,
        guestUsername: guest.username,
        serviceType: 'Widget',
        form: FORM,
        answers,
        ...(identity === undefined ? {} : { identity }),
      },
      guest.token,
    );
  /** What the company's agents see of the guest's waiting call. */
  const verifiedOf = async (guest: TestGuest) => {
    const row = await t.app.db
      .selectFrom('form_submissions as s')
      .innerJoin('guests as g', 'g.id', 's.guest_id')
      .select(['s.verified_fields', 's.answers'])
      .where('g.username', '=', guest.username)
      .orderBy('s.id', 'desc')
      .executeTakeFirstOrThrow();
    return row;
  };
  const answers = { ...signed, topic: 'account' };
  /** A guest who has not answered the welcome form yet. */
  const fresh = () => loginGuest(t.app, COMPANY, undefined, { checks: false });

  it('keeps the answers a valid token vouches for as verified, and only those sent unchanged', async () => {
    const guest = await fresh();
    const token = signIdentity(secret, { company: COMPANY, answers: signed, exp: inAnHour() });
    expect((await submit(guest, answers, token)).statusCode).toBe(201);
    expect((await verifiedOf(guest)).verified_fields).toEqual(['email', 'name']);

    // The visitor changes a signed answer before sending: that one is no longer vouched for.
    const changed = await fresh();
    expect((await submit(changed, { ...answers, name: 'Eve' }, token)).statusCode).toBe(201);
    expect((await verifiedOf(changed)).verified_fields).toEqual(['email']);

    // Without a token nothing is verified, whatever the answers say.
    const plain = await fresh();
    expect((await submit(plain, answers)).statusCode).toBe(201);
    expect((await verifiedOf(plain)).verified_fields).toEqual([]);
  });

  it('shows the agents of the company which answers were verified', async () => {
    const guest = await loginGuest(t.app, COMPANY);
    const token = signIdentity(secret, { company: COMPANY, answers: signed, exp: inAnHour() });
    expect((await submit(guest, answers, token)).statusCode).toBe(201);
    const { callId, response: added } = await addCall(t.app, guest, COMPANY, 10);
    expect(added.statusCode).toBe(201);
    const agent = await loginStaff(t.app, 'cy@frontdesk.demo');
    const list = await callApi(
      t.app,
      'GET',
      'calls?status=waiting&categoryId=10',
      undefined,
      agent,
    );
    const mine = list.json().data.find((call: { callId: string }) => call.callId === callId);
    expect(mine).toMatchObject({ welcomeAnswers: answers, welcomeVerified: ['email', 'name'] });
  });

  it.each([
    [
      'a forged signature',
      () =>
        `${Buffer.from(JSON.stringify({ company: COMPANY, answers: signed, exp: inAnHour() })).toString('base64url')}.${'0'.repeat(64)}`,
      'signature does not match',
    ],
    [
      'a token signed with a guessed secret',
      () => signIdentity('guess', { company: COMPANY, answers: signed, exp: inAnHour() }),
      'signature does not match',
    ],
    [
      'a valid token whose payload was edited',
      () => {
        const token = signIdentity(secret, { company: COMPANY, answers: signed, exp: inAnHour() });
        const [, mac] = token.split('.');
        const edited = Buffer.from(
          JSON.stringify({
            company: COMPANY,
            answers: { ...signed, name: 'Eve' },
            exp: inAnHour(),
          }),
        ).toString('base64url');
        return `${edited}.${mac}`;
      },
      'signature does not match',
    ],
    [
      'an expired token',
      () => signIdentity(secret, { company: COMPANY, answers: signed, exp: 1_000_000 }),
      'expired',
    ],
    [
      "a token signed for another company (with this company's secret)",
      () => signIdentity(secret, { company: 5, answers: signed, exp: inAnHour() }),
      'signed for another company',
    ],
    ['not a token at all', () => 'hello', 'must be payload.signature'],
    [
      'a token with a second signature',
      () => `${signIdentity(secret, { company: COMPANY, answers: signed, exp: inAnHour() })}.x`,
      'must be payload.signature',
    ],
  ])('refuses %s (400 naming identity) and stores nothing', async (_name, token, why) => {
    const guest = await fresh();
    const response = await submit(guest, answers, token());
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({ identity: why });
    const stored = await t.app.db
      .selectFrom('form_submissions as s')
      .innerJoin('guests as g', 'g.id', 's.guest_id')
      .select('s.id')
      .where('g.username', '=', guest.username)
      .execute();
    expect(stored).toEqual([]);
  });

  it("refuses a token for a company that has made no secret (a MAC over '' or 'null' included)", async () => {
    const company = 5;
    const guest = await loginGuest(t.app, company, undefined, { checks: false });
    const payload = Buffer.from(
      JSON.stringify({ company, answers: { name: 'Ada' }, exp: inAnHour() }),
    ).toString('base64url');
    for (const key of ['', 'null']) {
      const mac = createHmac('sha256', key).update(payload).digest('hex');
      const response = await callApi(
        t.app,
        'POST',
        'form-submission',
        {
          company,
          guestUsername: guest.username,
          serviceType: 'Widget',
          form: 1,
          answers: { name: 'Ada', email: 'ada@example.org', topic: 'account' },
          identity: `${payload}.${mac}`,
        },
        guest.token,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toEqual({ identity: 'the company has no embed secret' });
    }
  });

  it('a rotated secret stops the old tokens at once', async () => {
    const before = signIdentity(secret, { company: COMPANY, answers: signed, exp: inAnHour() });
    const rotated = await callApi(
      t.app,
      'POST',
      `company/${COMPANY}/embed-secret`,
      undefined,
      admin,
    );
    const next = rotated.json().data.secret as string;
    expect(next).not.toBe(secret);
    expect(next).toMatch(/^fdes_[A-Za-z0-9_-]{43}$/);
    const guest = await fresh();
    expect((await submit(guest, answers, before)).statusCode).toBe(400);
    const after = signIdentity(next, { company: COMPANY, answers: signed, exp: inAnHour() });
    expect((await submit(guest, answers, after)).statusCode).toBe(201);
    secret = next;
  });

  it('shows and rotates the secret for the company’s admins only; the audit log never holds it', async () => {
    const read = (token?: string) =>
      callApi(t.app, 'GET', `company/${COMPANY}/embed-secret`, undefined, token);
    expect((await read(admin)).json().data.secret).toBe(secret);
    expect((await read()).statusCode).toBe(401);
    const guest = await loginGuest(t.app, COMPANY);
    const agent = await loginStaff(t.app, 'cy@frontdesk.demo');
    const otherAdmin = await loginStaff(t.app, 'admin@frontdesk.demo');
    for (const token of [guest.token, agent, otherAdmin]) {
      expect((await read(token)).statusCode).toBe(403);
      const rotate = await callApi(
        t.app,
        'POST',
        `company/${COMPANY}/embed-secret`,
        undefined,
        token,
      );
      expect(rotate.statusCode).toBe(403);
    }
    // Never in the public details nor in the audit log.
    const details = await callApi(t.app, 'GET', `company/${COMPANY}`, undefined);
    expect(JSON.stringify(details.json())).not.toContain(secret);
    const audit = await callApi(t.app, 'GET', `company/${COMPANY}/audit`, undefined, admin);
    const text = JSON.stringify(audit.json());
    expect(text).toContain('company.embedSecret');
    expect(text).not.toContain('fdes_');
  });

  describe('GET /api/embed/:id (the loader’s launcher)', () => {
    const config = (company: number, origin?: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/embed/${company}`,
        headers: origin ? { origin } : {},
      });

    it('answers a site in allowedOrigins, with CORS for it alone and the company’s colours', async () => {
      const response = await config(COMPANY, DEMO_SHOP_ORIGIN);
      expect(response.statusCode).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe(DEMO_SHOP_ORIGIN);
      expect(response.headers.vary).toContain('origin');
      expect(response.json().data).toMatchObject({
        companyId: COMPANY,
        name: 'Frontdesk Around the Clock',
        pageDirection: 'ltr',
      });
      expect(JSON.stringify(response.json())).not.toContain('fdes_');
    });

    it('refuses any other site (403, no CORS header, so its page cannot read the answer)', async () => {
      for (const origin of ['https://evil.example', `${DEMO_SHOP_ORIGIN}.evil.example`, 'null']) {
        const response = await config(COMPANY, origin);
        expect(response.statusCode).toBe(403);
        expect(response.headers['access-control-allow-origin']).toBeUndefined();
        expect(response.json().error.fields).toEqual({
          origin: "must be in the company's allowedOrigins",
        });
      }
      // The shop is allowed for its company only.
      expect((await config(5, DEMO_SHOP_ORIGIN)).statusCode).toBe(403);
    });
  });
});
