import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, operatorLoginSchema } from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import { createOperator } from '../../src/staff/operators.ts';
import { bearer, loginGuest, loginStaff, staffIdOf } from '../helper.ts';
import { buildTestAppWithChat, type TestAppWithChat } from '../chat-server.ts';

/**
 * Attacks on staff administration and the platform operator (decision 0017): managing a
 * company's staff without being its admin, an operator acting on a company or a company's admin
 * acting as operator, guessing passwords through the password change, and keeping the chat of a
 * member who was deactivated or reset. Through the REST routes with real tokens, and a real XMPP
 * client against a real ejabberd.
 */
describe('attack: staff administration and the platform operator', () => {
  const company = SEEDED_COMPANY.aroundTheClock;
  let t: TestAppWithChat;
  let tokens: Record<'guest' | 'agent' | 'otherAdmin' | 'operator' | 'admin', string>;
  let diId: number;

  beforeAll(async () => {
    t = await buildTestAppWithChat('staff-admin');
    const operator = await createOperator(t.app.db, { email: 'olga@platform.example' });
    const operatorLogin = await t.app.inject({
      method: 'POST',
      url: '/api/operator/login',
      body: { email: operator.email, password: operator.password },
    });
    const [guest, agent, otherAdmin, admin] = await Promise.all([
      loginGuest(t.app, company),
      loginStaff(t.app, 'cy@frontdesk.demo'),
      loginStaff(t.app, 'admin@frontdesk.demo'),
      loginStaff(t.app, 'zoe@frontdesk.demo'),
    ]);
    tokens = {
      guest: guest.token,
      agent,
      otherAdmin,
      admin,
      operator: envelope(operatorLoginSchema).parse(operatorLogin.json()).data.token,
    };
    diId = await staffIdOf(t.app, 'di@frontdesk.demo');
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = (method: 'GET' | 'POST' | 'PATCH', url: string, token?: string, body?: object) =>
    t.app.inject({
      method,
      url: `/api/${url}`,
      ...(body ? { body } : {}),
      ...(token ? { headers: bearer(token) } : {}),
    });

  const staffRoutes = () =>
    [
      ['GET', `company/${company}/staff`, undefined],
      [
        'POST',
        `company/${company}/staff`,
        { email: 'mole@example.com', name: 'Mole', role: 'admin' },
      ],
      ['PATCH', `company/${company}/staff/${diId}`, { active: false }],
      ['POST', `company/${company}/staff/${diId}/password-reset`, undefined],
    ] as const;

  it("refuses every staff route to anyone but the company's own admins, and changes nothing", async () => {
    const expected = { anonymous: 401, operator: 401, guest: 403, agent: 403, otherAdmin: 403 };
    for (const [method, url, body] of staffRoutes()) {
      for (const [who, status] of Object.entries(expected)) {
        const token = who === 'anonymous' ? undefined : tokens[who as keyof typeof tokens];
        const response = await send(method, url, token, body);
        expect({ who, method, url, status: response.statusCode }).toEqual({
          who,
          method,
          url,
          status,
        });
      }
    }
    const di = await t.app.db
      .selectFrom('staff')
      .select(['active', 'one_time_password_expires_at'])
      .where('id', '=', diId)
      .executeTakeFirstOrThrow();
    expect(di).toEqual({ active: true, one_time_password_expires_at: null });
    const mole = await t.app.db
      .selectFrom('staff')
      .select('id')
      .where('email', '=', 'mole@example.com')
      .execute();
    expect(mole).toEqual([]);
    expect(await t.app.db.selectFrom('audit_entries').select('id').execute()).toEqual([]);
  });

  it("refuses the operator routes to anyone but a signed-in operator, a company's admin included", async () => {
    const routes = [
      ['GET', 'operator/companies', undefined],
      ['POST', 'operator/companies', { name: 'Rogue', adminEmail: 'rogue@example.com' }],
      ['POST', 'operator/logout', undefined],
    ] as const;
    for (const [method, url, body] of routes) {
      for (const who of ['anonymous', 'guest', 'agent', 'admin'] as const) {
        const token = who === 'anonymous' ? undefined : tokens[who];
        const response = await send(method, url, token, body);
        expect({ who, url, status: response.statusCode }).toEqual({ who, url, status: 401 });
      }
    }
    const rogue = await t.app.db
      .selectFrom('companies')
      .select('id')
      .where('name', '=', 'Rogue')
      .execute();
    expect(rogue).toEqual([]);
  });

  it('counts wrong passwords sent to the password change as failed sign-ins', async () => {
    const remoteAddress = '10.77.0.1';
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const guess = await t.app.inject({
        method: 'POST',
        url: '/api/auth/password',
        body: {
          email: 'zoe@frontdesk.demo',
          currentPassword: `guess-${attempt}`,
          newPassword: 'the attacker’s passphrase',
        },
        remoteAddress,
      });
      expect(guess.statusCode).toBe(401);
    }
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: 'zoe@frontdesk.demo', password: 'frontdesk-demo' },
      remoteAddress,
    });
    expect(login.statusCode).toBe(429);
  });

  it("ends the chat of a member the admin deactivates or resets at once, and no one else's", async () => {
    const di = await t.signIn('di@frontdesk.demo');
    const cy = await t.signIn('cy@frontdesk.demo');
    const ada = await t.signIn('ada@frontdesk.demo');

    const deactivated = await send(
      'PATCH',
      `company/${company}/staff/${di.staffId}`,
      tokens.admin,
      {
        active: false,
      },
    );
    expect(deactivated.statusCode).toBe(200);
    expect(await di.ended).toMatchObject({ code: 'signed-out' });

    const reset = await send(
      'POST',
      `company/${company}/staff/${cy.staffId}/password-reset`,
      tokens.admin,
    );
    expect(reset.statusCode).toBe(200);
    expect(await cy.ended).toMatchObject({ code: 'signed-out' });

    const connected = await t.connectedNow();
    expect(connected).not.toContain(`staff-${di.staffId}`);
    expect(connected).not.toContain(`staff-${cy.staffId}`);
    expect(ada.chat.status).toBe('connected');
    expect(connected).toContain(`staff-${ada.staffId}`);
  });
});
