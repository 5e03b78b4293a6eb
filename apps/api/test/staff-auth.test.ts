import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, staffLoginSchema } from '@frontdesk/protocol';
import { DEMO_LOGINS } from '../src/db/seed.ts';
import { buildTestApp, type TestApp } from './helper.ts';

describe('POST /api/auth/login', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const login = (body: unknown, ip = '127.0.0.1') =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      body: body as object,
      remoteAddress: ip,
    });

  it.each(DEMO_LOGINS)('logs $email in as $role of company $companyId', async (demo) => {
    const response = await login({ email: demo.email, password: demo.password });
    expect(response.statusCode).toBe(200);
    const { data } = envelope(staffLoginSchema).parse(response.json());
    expect(data.user).toMatchObject({
      email: demo.email,
      role: demo.role,
      companyId: demo.companyId,
    });
    expect(data.xmpp.jid).toBe(`staff-${data.user.id}@frontdesk.localhost`);
    // The company's own room only: each call has a room of its own (decision 0010).
    const { conference_name, room_password } = await t.app.db
      .selectFrom('companies')
      .select(['conference_name', 'room_password'])
      .where('id', '=', demo.companyId)
      .executeTakeFirstOrThrow();
    expect(data.rooms).toEqual([
      {
        jid: `${conference_name}@conference.frontdesk.localhost`,
        kind: 'company',
        categoryId: null,
        password: room_password,
      },
    ]);
  });

  it('takes the e-mail in any case', async () => {
    const response = await login(
      { email: 'ADA@Frontdesk.Demo', password: 'frontdesk-demo' },
      '10.0.0.2',
    );
    expect(response.statusCode).toBe(200);
  });

  it('gives one answer for a wrong password and an unknown e-mail (401)', async () => {
    const wrong = await login({ email: 'ada@frontdesk.demo', password: 'nope' }, '10.0.0.3');
    const unknown = await login({ email: 'nobody@frontdesk.demo', password: 'nope' }, '10.0.0.3');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json().error.code).toBe('invalid_credentials');
  });

  it.each([
    ['a malformed e-mail', { email: 'ada', password: 'x' }, 'email'],
    ['an empty password', { email: 'ada@frontdesk.demo', password: '' }, 'password'],
    ['no password', { email: 'ada@frontdesk.demo' }, 'password'],
  ])('refuses %s with 400 naming the field', async (_name, body, field) => {
    const response = await login(body, '10.0.0.4');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toHaveProperty(field);
  });

  it('stops password guessing from one address with 429', async () => {
    const attempts = [];
    for (let i = 0; i < 11; i += 1) {
      attempts.push(
        await login({ email: 'dee@frontdesk.demo', password: `guess-${i}` }, '10.0.0.9'),
      );
    }
    expect(attempts.slice(0, 10).every((r) => r.statusCode === 401)).toBe(true);
    const limited = attempts[10];
    expect(limited?.statusCode).toBe(429);
    expect(limited?.json().error.code).toBe('rate_limited');
    expect(limited?.headers['retry-after']).toBeDefined();
    // Another address signing in to another account is not affected.
    expect(
      (await login({ email: 'di@frontdesk.demo', password: 'x' }, '10.0.0.10')).statusCode,
    ).toBe(401);
  });

  it('counts only failures: a whole office signs in from one address, again and again', async () => {
    const office = '10.0.0.11';
    const statuses = [];
    for (let i = 0; i < 25; i += 1) {
      const demo = DEMO_LOGINS[i % DEMO_LOGINS.length];
      if (!demo) throw new Error('no demo login');
      statuses.push(
        (await login({ email: demo.email, password: demo.password }, office)).statusCode,
      );
    }
    expect(statuses).toEqual(Array(25).fill(200));
    // Nine wrong passwords from the office still leave its agents signing in.
    for (let i = 0; i < 9; i += 1) {
      await login({ email: 'ada@frontdesk.demo', password: `typo-${i}` }, office);
    }
    const ada = DEMO_LOGINS[0];
    expect((await login({ email: ada?.email, password: ada?.password }, office)).statusCode).toBe(
      200,
    );
  });

  it('counts guesses sent all at once before any of them is answered', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        login({ email: 'bo@frontdesk.demo', password: `burst-${i}` }, '10.0.0.12'),
      ),
    );
    const statuses = attempts.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
  });

  it('stops password guessing of one account from many addresses with 429', async () => {
    // Limited per e-mail whether the account exists or not, so the limit tells nothing either.
    const attempts = [];
    for (let i = 0; i < 21; i += 1) {
      attempts.push(
        await login(
          { email: 'Guessed.Account@frontdesk.demo', password: `guess-${i}` },
          `10.0.1.${i}`,
        ),
      );
    }
    expect(attempts.slice(0, 20).map((r) => r.statusCode)).toEqual(Array(20).fill(401));
    expect(attempts[20]?.statusCode).toBe(429);
  });
});
