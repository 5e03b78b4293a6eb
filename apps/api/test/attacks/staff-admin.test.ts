import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatSession, type ChatError } from '@frontdesk/chat';
import { envelope, operatorLoginSchema, staffSignedInSchema } from '@frontdesk/protocol';
import { startEjabberd, type RunningEjabberd } from '@frontdesk/infra';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import { createOperator } from '../../src/staff/operators.ts';
import { bearer, buildTestApp, loginGuest, loginStaff, type TestApp } from '../helper.ts';

/**
 * Attacks on staff administration and the platform operator (decision 0017): managing a
 * company's staff without being its admin, an operator acting on a company or a company's admin
 * acting as operator, guessing passwords through the password change, and keeping the chat of a
 * member who was deactivated or reset. Through the REST routes with real tokens, and a real XMPP
 * client against a real ejabberd.
 */
describe('attack: staff administration and the platform operator', () => {
  const company = SEEDED_COMPANY.aroundTheClock;
  let dir: string;
  let xmpp: RunningEjabberd;
  let t: TestApp;
  const open: ChatSession[] = [];
  let tokens: Record<'guest' | 'agent' | 'otherAdmin' | 'operator' | 'admin', string>;
  let diId: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'frontdesk-api-staff-admin-'));
    const jwtSecret = randomBytes(32);
    xmpp = await startEjabberd({ dir, jwtSecret });
    t = await buildTestApp({
      XMPP_ADMIN_URL: xmpp.adminApiUrl,
      XMPP_DOMAIN: xmpp.domain,
      XMPP_JWT_SECRET: Buffer.from(jwtSecret).toString('base64url'),
    });
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
    diId = (
      await t.app.db
        .selectFrom('staff')
        .select('id')
        .where('email', '=', 'di@frontdesk.demo')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    for (const session of open) session.close();
    await t?.close();
    await xmpp?.stop();
    await rm(dir, { recursive: true, force: true });
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

  /** Signs a demo member in through the API and connects its chat as the console does. */
  async function chatOf(email: string) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      body: { email, password: 'frontdesk-demo' },
    });
    const login = envelope(staffSignedInSchema).parse(response.json()).data;
    const chat = new ChatSession({
      url: xmpp.wsUrl,
      jid: login.xmpp.jid,
      token: login.xmpp.password,
      sender: 'AGENT',
      resource: 'web-test',
      log: () => undefined,
    });
    open.push(chat);
    await chat.connect();
    const ended = new Promise<ChatError>((resolve) => chat.on('error', resolve));
    return { staffId: login.user.id, chat, ended };
  }

  const connectedNow = async () => {
    const response = await fetch(`${xmpp.adminApiUrl}/connected_users`, {
      method: 'POST',
      body: '{}',
    });
    return ((await response.json()) as string[]).map((jid) => jid.split('@')[0]);
  };

  it("ends the chat of a member the admin deactivates or resets at once, and no one else's", async () => {
    const di = await chatOf('di@frontdesk.demo');
    const cy = await chatOf('cy@frontdesk.demo');
    const ada = await chatOf('ada@frontdesk.demo');

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

    const connected = await connectedNow();
    expect(connected).not.toContain(`staff-${di.staffId}`);
    expect(connected).not.toContain(`staff-${cy.staffId}`);
    expect(ada.chat.status).toBe('connected');
    expect(connected).toContain(`staff-${ada.staffId}`);
  });
});
