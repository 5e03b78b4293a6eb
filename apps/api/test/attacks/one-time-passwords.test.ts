import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, staffInvitedSchema } from '@frontdesk/protocol';
import { createOperator } from '../../src/staff/operators.ts';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import { bearer, buildTestApp, loginStaff, type TestApp } from '../helper.ts';

const company = SEEDED_COMPANY.aroundTheClock;

/**
 * Attack: a one-time password handed over for an invite is seen by two people (a shared chat, a
 * shoulder), who both race to exchange it for a password of their own; and password guessing
 * against the platform operator, whose account creates companies.
 */
describe('attack: racing a one-time password, guessing the operator’s', () => {
  let t: TestApp;
  let zoe: string;

  beforeAll(async () => {
    t = await buildTestApp();
    zoe = await loginStaff(t.app, 'zoe@frontdesk.demo');
  });
  afterAll(() => t.close());

  const someAddress = () => `10.${[...randomBytes(3)].join('.')}`;
  const post = (url: string, body: object, headers = {}, remoteAddress = someAddress()) =>
    t.app.inject({ method: 'POST', url: `/api/${url}`, body, headers, remoteAddress });

  it('exchanges one one-time password once, however many exchanges race for it', async () => {
    const invited = await post(
      `company/${company}/staff`,
      { email: 'raced@example.com', name: 'Raced', role: 'admin' },
      bearer(zoe),
    );
    expect(invited.statusCode, invited.body).toBe(201);
    const { oneTimePassword } = envelope(staffInvitedSchema).parse(invited.json()).data;

    const choices = [
      'the member’s own passphrase',
      'the onlooker’s passphrase',
      'a third one here!',
    ];
    const answers = await Promise.all(
      choices.map((newPassword) =>
        post('auth/password', {
          email: 'raced@example.com',
          currentPassword: oneTimePassword,
          newPassword,
        }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(choices.length - 1);

    // Only the winner's password signs in; the others', and the one-time password, do not.
    const winner = choices[statuses.indexOf(200)] ?? '';
    for (const password of [...choices, oneTimePassword]) {
      const login = await post('auth/login', { email: 'raced@example.com', password });
      expect({ password, status: login.statusCode }).toEqual({
        password,
        status: password === winner ? 200 : 401,
      });
    }
    // And the losers hold no session: the member has the winner's sign-ins only.
    const sessions = await t.app.db
      .selectFrom('sessions')
      .innerJoin('staff', 'staff.id', 'sessions.staff_id')
      .select('sessions.id')
      .where('staff.email', '=', 'raced@example.com')
      .where('sessions.revoked_at', 'is', null)
      .execute();
    expect(sessions).toHaveLength(2);
  });

  it('stops guessing of an operator’s password as the staff sign-in does', async () => {
    const operator = await createOperator(t.app.db, { email: 'ops@platform.example' });
    const remoteAddress = '10.99.0.1';
    for (let guess = 0; guess < 10; guess += 1) {
      const wrong = await post(
        'operator/login',
        { email: operator.email, password: `guess-${guess}` },
        {},
        remoteAddress,
      );
      expect(wrong.statusCode).toBe(401);
    }
    // Even the right password waits now, so the limit says nothing of which guess was right.
    const right = await post(
      'operator/login',
      { email: operator.email, password: operator.password },
      {},
      remoteAddress,
    );
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
  });
});
