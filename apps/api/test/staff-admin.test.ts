import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  envelope,
  oneTimePasswordSchema,
  operatorCompanySchema,
  operatorCreatedCompanySchema,
  operatorLoginSchema,
  staffAdminEntrySchema,
  staffInvitedSchema,
  staffLoginAnswerSchema,
  staffSignedInSchema,
} from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../src/db/seed.ts';
import {
  bearer,
  buildTestApp,
  loginStaff,
  refreshCookieOf,
  refreshSession,
  type TestApp,
} from './helper.ts';
import { runOperatorCommand } from './operator-command.ts';

const company = SEEDED_COMPANY.aroundTheClock;
let t: TestApp;
let zoe: string;

beforeAll(async () => {
  t = await buildTestApp();
  zoe = await loginStaff(t.app, 'zoe@frontdesk.demo');
});
afterAll(() => t.close());

/** Each request from an address of its own: the failed-sign-in limits are another test's. */
const someAddress = () => `10.${[...randomBytes(3)].join('.')}`;

type Method = 'GET' | 'POST' | 'PATCH';
const send = (method: Method, url: string, token?: string, body?: object, headers = {}) =>
  t.app.inject({
    method,
    url: `/api/${url}`,
    ...(body ? { body } : {}),
    headers: { ...(token ? bearer(token) : {}), ...headers },
    remoteAddress: someAddress(),
  });

const login = (email: string, password: string) =>
  send('POST', 'auth/login', undefined, { email, password });
const changePassword = (email: string, currentPassword: string, newPassword: string) =>
  send('POST', 'auth/password', undefined, { email, currentPassword, newPassword });

const invite = async (body: { email: string; name: string; role: 'agent' | 'admin' }) => {
  const response = await send('POST', `company/${company}/staff`, zoe, body);
  expect(response.statusCode, response.body).toBe(201);
  return envelope(staffInvitedSchema).parse(response.json()).data;
};

/** The company's audit entries of `action` on `target`, oldest first. */
const auditOf = (action: string, target: string) =>
  t.app.db
    .selectFrom('audit_entries')
    .selectAll()
    .where('action', '=', action)
    .where('target', '=', target)
    .orderBy('id')
    .execute();

describe('GET /api/company/:id/staff', () => {
  it("lists the company's members with e-mail, role and state", async () => {
    const response = await send('GET', `company/${company}/staff`, zoe);
    expect(response.statusCode).toBe(200);
    const staff = envelope(staffAdminEntrySchema.array()).parse(response.json()).data;
    expect(
      staff.map(({ email, role, active, oneTimePasswordExpiresAt }) => ({
        email,
        role,
        active,
        oneTimePasswordExpiresAt,
      })),
    ).toEqual([
      { email: 'cy@frontdesk.demo', role: 'agent', active: true, oneTimePasswordExpiresAt: null },
      { email: 'di@frontdesk.demo', role: 'agent', active: true, oneTimePasswordExpiresAt: null },
      { email: 'zoe@frontdesk.demo', role: 'admin', active: true, oneTimePasswordExpiresAt: null },
    ]);
  });
});

describe('an invite', () => {
  const newPassword = 'a long passphrase of my own';
  let invited: Awaited<ReturnType<typeof invite>>;

  it('creates the member with a one-time password, audited without it', async () => {
    const before = Date.now();
    invited = await invite({ email: 'Eve@Example.com', name: 'Eve Agent', role: 'agent' });
    expect(invited.member).toMatchObject({
      email: 'eve@example.com',
      name: 'Eve Agent',
      role: 'agent',
      active: true,
    });
    expect(invited.oneTimePassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const expires = Date.parse(invited.expiresAt) - before;
    expect(expires).toBeGreaterThan(6.9 * 24 * 3600_000);
    expect(expires).toBeLessThan(7.1 * 24 * 3600_000);
    expect(invited.member.oneTimePasswordExpiresAt).toBe(invited.expiresAt);

    const [entry] = await auditOf('staff.invite', `staff ${invited.member.id}`);
    expect(entry).toMatchObject({
      company_id: company,
      actor: 'zoe@frontdesk.demo',
      before: null,
      after: { email: 'eve@example.com', name: 'Eve Agent', role: 'agent' },
    });
    const row = await t.app.db
      .selectFrom('staff')
      .select('password_hash')
      .where('id', '=', invited.member.id)
      .executeTakeFirstOrThrow();
    // SECURITY: neither the password nor its hash reaches the audit log.
    const logged = JSON.stringify(await t.app.db.selectFrom('audit_entries').selectAll().execute());
    expect(logged).not.toContain(invited.oneTimePassword);
    expect(logged).not.toContain(row.password_hash);
  });

  it('answers its ETag, the company version it made', async () => {
    const details = await send('GET', `company/${company}`);
    const second = await send('POST', `company/${company}/staff`, zoe, {
      email: 'fay@example.com',
      name: 'Fay',
      role: 'agent',
    });
    expect(second.statusCode).toBe(201);
    expect(Number(JSON.parse(second.headers.etag as string))).toBe(
      Number(JSON.parse(details.headers.etag as string)) + 1,
    );
  });

  it('signs in with the one-time password to nothing but choosing a password', async () => {
    const first = await login('eve@example.com', invited.oneTimePassword);
    expect(first.statusCode).toBe(200);
    expect(envelope(staffLoginAnswerSchema).parse(first.json()).data).toEqual({
      mustChangePassword: true,
      expiresAt: invited.expiresAt,
    });
    // No token of any kind, and no session.
    expect(first.body).not.toMatch(/token|xmpp|janus/i);
    const sessions = await t.app.db
      .selectFrom('sessions')
      .select('id')
      .where('staff_id', '=', invited.member.id)
      .execute();
    expect(sessions).toEqual([]);
  });

  it('refuses a weak new password, naming it', async () => {
    const weak = await changePassword('eve@example.com', invited.oneTimePassword, 'short');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.fields).toEqual({ newPassword: 'must be at least 12 characters' });
  });

  it('exchanges the one-time password once for the member’s own, which signs them in', async () => {
    const changed = await changePassword('eve@example.com', invited.oneTimePassword, newPassword);
    expect(changed.statusCode).toBe(200);
    const signedIn = envelope(staffSignedInSchema).parse(changed.json()).data;
    expect(signedIn.user).toMatchObject({
      email: 'eve@example.com',
      role: 'agent',
      companyId: company,
    });
    const me = await send('GET', 'staff', signedIn.access_token);
    expect(me.statusCode).toBe(200);

    // The one-time password is spent.
    expect((await login('eve@example.com', invited.oneTimePassword)).statusCode).toBe(401);
    expect(
      (await changePassword('eve@example.com', invited.oneTimePassword, 'another passphrase!'))
        .statusCode,
    ).toBe(401);
    const again = await login('eve@example.com', newPassword);
    expect(again.statusCode).toBe(200);
    expect(envelope(staffLoginAnswerSchema).parse(again.json()).data.mustChangePassword).toBe(
      false,
    );
    // The list shows the member has chosen their own.
    const list = await send('GET', `company/${company}/staff`, zoe);
    const eve = envelope(staffAdminEntrySchema.array())
      .parse(list.json())
      .data.find((m) => m.id === invited.member.id);
    expect(eve?.oneTimePasswordExpiresAt).toBeNull();
  });

  it('changing one’s own password ends one’s other sign-ins', async () => {
    const signedInResponse = await login('eve@example.com', newPassword);
    const signedIn = envelope(staffSignedInSchema).parse(signedInResponse.json()).data;
    const changed = await changePassword('eve@example.com', newPassword, 'yet another passphrase');
    expect(changed.statusCode).toBe(200);
    expect((await send('GET', 'staff', signedIn.access_token)).statusCode).toBe(401);
    const refreshed = await refreshSession(t.app, refreshCookieOf(signedInResponse));
    expect(refreshed.statusCode).toBe(401);
    // The change signed this page in anew: its own cookie works.
    expect((await refreshSession(t.app, refreshCookieOf(changed))).statusCode).toBe(200);
  });

  it('refuses a one-time password past its week', async () => {
    const late = await invite({ email: 'late@example.com', name: 'Late', role: 'agent' });
    await t.app.db
      .updateTable('staff')
      .set({ one_time_password_expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', late.member.id)
      .execute();
    const refused = await login('late@example.com', late.oneTimePassword);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('one_time_password_expired');
    const change = await changePassword('late@example.com', late.oneTimePassword, newPassword);
    expect(change.statusCode).toBe(401);
  });

  it('refuses an e-mail that signs anyone in, in any company and any case, naming email', async () => {
    const taken = await send('POST', `company/${company}/staff`, zoe, {
      email: 'ADA@frontdesk.demo',
      name: 'Ada Again',
      role: 'agent',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.code).toBe('email_taken');
    expect(Object.keys(taken.json().error.fields)).toEqual(['email']);
    // SECURITY: whose it is stays untold.
    expect(taken.body).not.toContain(String(SEEDED_COMPANY.demo));
  });

  it('refuses bad fields, naming each', async () => {
    const bad = await send('POST', `company/${company}/staff`, zoe, {
      email: 'not an address',
      name: ' ',
      role: 'operator',
      password: 'chosen by the admin',
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields).sort()).toEqual([
      'email',
      'name',
      'password',
      'role',
    ]);
  });
});

describe('PATCH /api/company/:id/staff/:staffId', () => {
  it('renames and changes the role, auditing only what changed', async () => {
    const { member } = await invite({ email: 'gus@example.com', name: 'Gus', role: 'agent' });
    const response = await send('PATCH', `company/${company}/staff/${member.id}`, zoe, {
      name: 'Gus Admin',
      role: 'admin',
      active: true,
    });
    expect(response.statusCode).toBe(200);
    expect(envelope(staffAdminEntrySchema).parse(response.json()).data).toMatchObject({
      name: 'Gus Admin',
      role: 'admin',
      active: true,
    });
    const [entry] = await auditOf('staff.update', `staff ${member.id}`);
    expect(entry).toMatchObject({
      before: { name: 'Gus', role: 'agent' },
      after: { name: 'Gus Admin', role: 'admin' },
    });
  });

  it('sets the categories a member serves, only the company’s own', async () => {
    const { member } = await invite({ email: 'ida@example.com', name: 'Ida', role: 'agent' });
    const url = `company/${company}/staff/${member.id}`;
    // Company 12's Sales and Support.
    const served = await send('PATCH', url, zoe, { categoryIds: [11, 10] });
    expect(served.statusCode).toBe(200);
    expect(served.json().data.categoryIds).toEqual([10, 11]);
    const listed = envelope(staffAdminEntrySchema.array())
      .parse((await send('GET', `company/${company}/staff`, zoe)).json())
      .data.find((m) => m.id === member.id);
    expect(listed?.categoryIds).toEqual([10, 11]);
    const [entry] = await auditOf('staff.update', `staff ${member.id}`);
    expect(entry).toMatchObject({ before: { categoryIds: [] }, after: { categoryIds: [10, 11] } });

    // Company 5's Sales.
    const foreign = await send('PATCH', url, zoe, { categoryIds: [10, 1] });
    expect(foreign.statusCode).toBe(400);
    expect(Object.keys(foreign.json().error.fields)).toEqual(['categoryIds']);
    const twice = await send('PATCH', url, zoe, { categoryIds: [10, 10] });
    expect(twice.json().error.fields).toEqual({ categoryIds: 'must not list a category twice' });
    const none = await send('PATCH', url, zoe, { categoryIds: [] });
    expect(none.json().data.categoryIds).toEqual([]);
  });

  it('refuses a stale If-Match with 412, and an empty or unknown change with 400', async () => {
    const { member } = await invite({ email: 'hal@example.com', name: 'Hal', role: 'agent' });
    const stale = await send(
      'PATCH',
      `company/${company}/staff/${member.id}`,
      zoe,
      { name: 'Hal 2' },
      { 'if-match': '"1"' },
    );
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error.code).toBe('stale_version');
    const empty = await send('PATCH', `company/${company}/staff/${member.id}`, zoe, {});
    expect(empty.statusCode).toBe(400);
    const unknown = await send('PATCH', `company/${company}/staff/${member.id}`, zoe, {
      email: 'x@example.com',
    });
    expect(unknown.json().error.fields).toMatchObject({ email: 'is not allowed' });
  });

  it('deactivation stops the member’s tokens and sign-in; reactivation lets them sign in anew', async () => {
    const { member, oneTimePassword } = await invite({
      email: 'ivy@example.com',
      name: 'Ivy',
      role: 'agent',
    });
    const ownPassword = 'ivy chose this passphrase';
    const changed = await changePassword('ivy@example.com', oneTimePassword, ownPassword);
    const signedIn = envelope(staffSignedInSchema).parse(changed.json()).data;
    const deactivate = await send('PATCH', `company/${company}/staff/${member.id}`, zoe, {
      active: false,
    });
    expect(deactivate.statusCode).toBe(200);
    expect(deactivate.json().data.active).toBe(false);

    expect((await send('GET', 'staff', signedIn.access_token)).statusCode).toBe(401);
    const refresh = () => refreshSession(t.app, refreshCookieOf(changed));
    expect((await refresh()).statusCode).toBe(401);
    expect((await login('ivy@example.com', ownPassword)).statusCode).toBe(401);
    const [entry] = await auditOf('staff.deactivate', `staff ${member.id}`);
    expect(entry).toMatchObject({ before: { active: true }, after: { active: false } });

    const reactivate = await send('PATCH', `company/${company}/staff/${member.id}`, zoe, {
      active: true,
    });
    expect(reactivate.statusCode).toBe(200);
    // SECURITY: the sign-ins from before stay ended; only a new one works.
    expect((await refresh()).statusCode).toBe(401);
    expect((await login('ivy@example.com', ownPassword)).statusCode).toBe(200);
  });

  it('answers 404 for a member of another company', async () => {
    const ada = await t.app.db
      .selectFrom('staff')
      .select('id')
      .where('email', '=', 'ada@frontdesk.demo')
      .executeTakeFirstOrThrow();
    const response = await send('PATCH', `company/${company}/staff/${ada.id}`, zoe, {
      active: false,
    });
    expect(response.statusCode).toBe(404);
    const still = await login('ada@frontdesk.demo', 'frontdesk-demo');
    expect(still.statusCode).toBe(200);
  });
});

describe('POST /api/company/:id/staff/:staffId/password-reset', () => {
  it('replaces the password with a one-time one and ends the member’s sign-ins', async () => {
    const signedIn = envelope(staffSignedInSchema).parse(
      (await login('di@frontdesk.demo', 'frontdesk-demo')).json(),
    ).data;
    const di = signedIn.user.id;
    const reset = await send('POST', `company/${company}/staff/${di}/password-reset`, zoe);
    expect(reset.statusCode).toBe(200);
    const { oneTimePassword } = envelope(oneTimePasswordSchema).parse(reset.json()).data;

    expect((await send('GET', 'staff', signedIn.access_token)).statusCode).toBe(401);
    expect((await login('di@frontdesk.demo', 'frontdesk-demo')).statusCode).toBe(401);
    const next = await login('di@frontdesk.demo', oneTimePassword);
    expect(next.json().data).toMatchObject({ mustChangePassword: true });

    const [entry] = await auditOf('staff.password-reset', `staff ${di}`);
    expect(entry?.actor).toBe('zoe@frontdesk.demo');
    expect(JSON.stringify(entry)).not.toContain(oneTimePassword);
  });
});

describe('the last active admin', () => {
  it('cannot deactivate or demote themselves (409, naming the field); with another admin, can', async () => {
    const val = await loginStaff(t.app, 'val@frontdesk.demo');
    const voice = SEEDED_COMPANY.voiceLine;
    const valId = (
      await t.app.db
        .selectFrom('staff')
        .select('id')
        .where('email', '=', 'val@frontdesk.demo')
        .executeTakeFirstOrThrow()
    ).id;
    const patch = (body: object) => send('PATCH', `company/${voice}/staff/${valId}`, val, body);

    const deactivate = await patch({ active: false });
    expect(deactivate.statusCode).toBe(409);
    expect(deactivate.json().error).toMatchObject({
      code: 'last_admin',
      fields: { active: 'would leave the company without an active admin' },
    });
    const demote = await patch({ role: 'agent' });
    expect(demote.statusCode).toBe(409);
    expect(Object.keys(demote.json().error.fields)).toEqual(['role']);

    const invited = await send('POST', `company/${voice}/staff`, val, {
      email: 'wes@example.com',
      name: 'Wes',
      role: 'admin',
    });
    expect(invited.statusCode).toBe(201);
    const demoted = await patch({ role: 'agent' });
    expect(demoted.statusCode).toBe(200);
    // The demoted admin's token was an admin's: it stops.
    expect((await send('GET', `company/${voice}/staff`, val)).statusCode).toBe(401);
  });
});

/** `npm run create-operator` as the operator runs it, on this file's schema. */
const createOperatorCommand = (...args: string[]) => runOperatorCommand(t, 'create-operator', args);

describe('the platform operator', () => {
  let token: string;

  it('is made by npm run create-operator, which prints the password once', async () => {
    const run = createOperatorCommand('--email', 'Olga@Platform.example', '--name', 'Olga');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const password = /Password:\s+(\S+)/.exec(run.stdout)?.[1] ?? '';
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const response = await send('POST', 'operator/login', undefined, {
      email: 'olga@platform.example',
      password,
    });
    expect(response.statusCode).toBe(200);
    const login = envelope(operatorLoginSchema).parse(response.json()).data;
    expect(login.operator).toMatchObject({ email: 'olga@platform.example', name: 'Olga' });
    token = login.token;

    const again = createOperatorCommand('--email', 'olga@platform.example');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already signs a platform operator in');
    const bad = createOperatorCommand('--email', 'nobody');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--email must be an e-mail address');
    expect(
      (
        await send('POST', 'operator/login', undefined, {
          email: 'olga@platform.example',
          password: 'wrong',
        })
      ).statusCode,
    ).toBe(401);
  });

  it('creates a company whose admin signs in with a one-time password, audited as the operator', async () => {
    const response = await send('POST', 'operator/companies', token, {
      name: 'Acme',
      adminEmail: 'Boss@Acme.example',
    });
    expect(response.statusCode).toBe(201);
    const created = envelope(operatorCreatedCompanySchema).parse(response.json()).data;
    expect(created).toMatchObject({ name: 'Acme', adminEmail: 'boss@acme.example' });

    const first = await login('boss@acme.example', created.oneTimePassword);
    expect(first.json().data).toEqual({ mustChangePassword: true, expiresAt: created.expiresAt });
    const [entry] = await auditOf('company.create', `company ${created.companyId}`);
    expect(entry).toMatchObject({
      company_id: created.companyId,
      staff_id: null,
      actor: 'operator olga@platform.example',
      after: { name: 'Acme', admin: { id: created.adminId, email: 'boss@acme.example' } },
    });
    expect(JSON.stringify(entry)).not.toContain(created.oneTimePassword);

    const list = await send('GET', 'operator/companies', token);
    expect(list.statusCode).toBe(200);
    const companies = envelope(operatorCompanySchema.array()).parse(list.json()).data;
    expect(companies.find((c) => c.id === created.companyId)).toMatchObject({
      name: 'Acme',
      activated: true,
      adminEmails: ['boss@acme.example'],
    });
    expect(companies.find((c) => c.id === SEEDED_COMPANY.demo)?.adminEmails).toEqual([
      'admin@frontdesk.demo',
    ]);
  });

  it('is refused a taken admin e-mail (409 naming adminEmail) and bad input (400)', async () => {
    const taken = await send('POST', 'operator/companies', token, {
      name: 'Again',
      adminEmail: 'zoe@frontdesk.demo',
    });
    expect(taken.statusCode).toBe(409);
    expect(Object.keys(taken.json().error.fields)).toEqual(['adminEmail']);
    const bad = await send('POST', 'operator/companies', token, { name: '', adminEmail: 'x' });
    expect(Object.keys(bad.json().error.fields).sort()).toEqual(['adminEmail', 'name']);
  });

  it('signs out: the token stops', async () => {
    expect((await send('POST', 'operator/logout', token)).statusCode).toBe(204);
    expect((await send('GET', 'operator/companies', token)).statusCode).toBe(401);
  });
});
