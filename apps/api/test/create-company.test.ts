// `npm run create-company` against the real PostgreSQL: the admin it creates signs in through
// the API with the password it printed, and a second run with the same e-mail is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyDetailsSchema, envelope, staffLoginSchema } from '@frontdesk/protocol';
import {
  conferenceSlug,
  createCompanyWithAdmin,
  EmailTakenError,
} from '../src/companies/company-creation.ts';
import { buildTestApp, type TestApp } from './helper.ts';
import { runOperatorCommand } from './operator-command.ts';

let t: TestApp;

beforeAll(async () => {
  // A migrated schema of its own with no company at all, as a fresh public installation has.
  t = await buildTestApp({}, { seed: async () => undefined });
});
afterAll(() => t.close());

/** The command as `npm run create-company` runs it, on this file's schema. */
const createCompany = (...args: string[]) =>
  runOperatorCommand(t, 'create-company', args, {
    FRONTDESK_PUBLIC_URL: 'https://calls.example.com',
  });

const signIn = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', body: { email, password } });

describe('npm run create-company', () => {
  let password: string;
  let companyId: number;

  it('creates the company and its admin and prints the password once', async () => {
    const run = createCompany('--name', 'Acme', '--admin-email', 'Ops@Acme.Example');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    password = /Password:\s+(\S+)/.exec(run.stdout)?.[1] ?? '';
    companyId = Number(/\?company=(\d+)/.exec(run.stdout)?.[1]);
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(run.stdout).toContain('https://calls.example.com/console/');
    expect(run.stdout.split(password)).toHaveLength(2);
    // Only the hash is stored.
    const row = await t.app.db
      .selectFrom('staff')
      .select(['password_hash', 'role', 'company_id'])
      .where('email', '=', 'ops@acme.example')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ role: 'admin', company_id: companyId });
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain(password);
  });

  it('lets the admin sign in through the API with the printed password', async () => {
    const login = await signIn('ops@acme.example', password);
    expect(login.statusCode).toBe(200);
    const { user } = envelope(staffLoginSchema).parse(login.json()).data;
    expect(user).toMatchObject({ role: 'admin', companyId, email: 'ops@acme.example' });
    expect((await signIn('ops@acme.example', `${password}x`)).statusCode).toBe(401);
  });

  it('gives the company a guest page that works at once: one category, open now', async () => {
    const details = await t.app.inject({ method: 'GET', url: `/api/company/${companyId}` });
    expect(details.statusCode).toBe(200);
    const company = envelope(companyDetailsSchema).parse(details.json()).data;
    expect(company.name).toBe('Acme');
    expect(company.categories.map((c) => c.name)).toEqual(['General']);
  });

  it('refuses the same e-mail again, in any case, and creates nothing', async () => {
    const companies = await t.app.db.selectFrom('companies').select('id').execute();
    const run = createCompany('--name', 'Acme Two', '--admin-email', 'OPS@acme.example');
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('Password');
    expect(run.stderr).toContain('ops@acme.example already signs in a member of staff');
    expect(await t.app.db.selectFrom('companies').select('id').execute()).toEqual(companies);
  });

  it('refuses bad input with the flag at fault and the usage', () => {
    const bad = createCompany('--name', ' ', '--admin-email', 'not-an-address');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--name must not be empty');
    expect(bad.stderr).toContain('--admin-email must be an e-mail address');
    expect(bad.stderr).toContain('usage: npm run create-company');
    const missing = createCompany('--admin-email', 'someone@acme.example');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('--name is required');
    expect(createCompany('--nmae', 'Acme').stderr).toContain("Unknown option '--nmae'");
  });
});

describe('createCompanyWithAdmin', () => {
  it('names chat rooms apart for companies of the same name', async () => {
    const first = await createCompanyWithAdmin(t.app.db, {
      name: 'Hôtel Ünïcode & Co.',
      adminEmail: 'a@hotel.example',
    });
    const second = await createCompanyWithAdmin(t.app.db, {
      name: 'Hôtel Ünïcode & Co.',
      adminEmail: 'b@hotel.example',
      adminName: 'Bea',
    });
    expect(first.conferenceName).toBe('hotel-unicode-co');
    expect(second.conferenceName).toBe('hotel-unicode-co-2');
    expect(conferenceSlug('مكتب')).toBe('company');
  });

  it('throws EmailTakenError for a taken e-mail, whatever its case', async () => {
    await expect(
      createCompanyWithAdmin(t.app.db, { name: 'Again', adminEmail: 'A@hotel.example' }),
    ).rejects.toBeInstanceOf(EmailTakenError);
  });
});
