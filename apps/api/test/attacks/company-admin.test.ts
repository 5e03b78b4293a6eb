import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRoutes, companyAdminRoutes, routeUrl, staffLoginSchema } from '@frontdesk/protocol';
import { hashPassword } from '../../src/auth/password.ts';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import { bearer, buildTestApp, loginGuest, loginStaff, type TestApp } from '../helper.ts';

const COMPANY = SEEDED_COMPANY.demo;
const OTHER = SEEDED_COMPANY.aroundTheClock;

/** A request of every company-admin route against the demo company, each with a valid body. */
const ATTEMPTS: {
  name: keyof typeof adminRoutes;
  params?: Record<string, unknown>;
  body?: object;
  query?: Record<string, unknown>;
}[] = [
  { name: 'updateCompany', body: { welcomeMsg: 'Hijacked', textColor: '#ff0000' } },
  { name: 'companyCategories' },
  { name: 'createCategory', body: { name: 'Hijacked' } },
  { name: 'updateCategory', params: { categoryId: 1 }, body: { name: 'Hijacked' } },
  { name: 'reorderCategories', body: { categoryIds: [3, 2, 1] } },
  { name: 'deleteCategory', params: { categoryId: 1 } },
  { name: 'companyForm', params: { kind: 'welcome' } },
  {
    name: 'saveCompanyForm',
    params: { kind: 'welcome' },
    body: {
      title: 'Hijacked',
      fields: [{ name: 'card', label: 'Card number', required: true, type: 'text', maxLength: 20 }],
    },
  },
  { name: 'deleteCompanyForm', params: { kind: 'rating' } },
  { name: 'companyGeofence' },
  { name: 'saveCompanyGeofence', body: { zones: [] } },
  { name: 'checkGeofencePoint', body: { lat: 51.5, lng: -0.12 } },
  { name: 'companyBlocks' },
  { name: 'blockGuest', body: { fingerprint: 'abcdef0123456789', reason: 'Hijacked' } },
  { name: 'unblockGuest', params: { blockId: 1 } },
  { name: 'companyQuota' },
  { name: 'saveCompanyQuota', body: { monthlyCallQuota: 0 } },
  { name: 'companyAllowedOrigins' },
  { name: 'saveCompanyAllowedOrigins', body: { allowedOrigins: ['https://evil.example'] } },
  { name: 'companyEmbedSecret' },
  { name: 'rotateCompanyEmbedSecret' },
  { name: 'companyAudit', query: { limit: 10 } },
];

/**
 * Attack: someone other than the company's own admins reads or changes its settings, categories,
 * forms, zones, block list, quota, framing sites or audit log — anonymous, a guest of the
 * company, one of its agents, or an admin of another company (who holds a perfectly valid admin
 * token). Every route of the company-admin table is tried by each, through the public REST
 * interface; each is refused and the company is left exactly as it was.
 */
describe('attack: company admin by anyone but its own admins', () => {
  let t: TestApp;
  let callers: { who: string; token: string | null; status: number; code: string }[];

  beforeAll(async () => {
    t = await buildTestApp();
    // An admin of another company, signed in through the API as any admin would be.
    const password = 'another-company-admin-password';
    await t.app.db
      .insertInto('staff')
      .values({
        company_id: OTHER,
        email: 'admin@other.example',
        name: 'Other Admin',
        role: 'admin',
        password_hash: await hashPassword(password),
      })
      .execute();
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: 'admin@other.example', password },
    });
    const foreignAdmin = staffLoginSchema.parse(login.json().data).access_token;
    const guest = await loginGuest(t.app, COMPANY);
    callers = [
      { who: 'anonymous', token: null, status: 401, code: 'unauthenticated' },
      { who: 'a guest of the company', token: guest.token, status: 403, code: 'staff_only' },
      {
        who: 'an agent of the company',
        token: await loginStaff(t.app, 'ada@frontdesk.demo'),
        status: 403,
        code: 'admins_only',
      },
      {
        who: "another company's admin",
        token: foreignAdmin,
        status: 403,
        code: 'other_company',
      },
    ];
  });
  afterAll(() => t.close());

  /** Everything the routes could read or change, to compare before and after. */
  const snapshot = async () => {
    const { db } = t.app;
    return {
      company: await db.selectFrom('companies').selectAll().where('id', '=', COMPANY).execute(),
      categories: await db.selectFrom('categories').selectAll().orderBy('id').execute(),
      forms: await db.selectFrom('forms').selectAll().orderBy('id').execute(),
      zones: await db.selectFrom('geofence_zones').selectAll().orderBy('id').execute(),
      blocks: await db.selectFrom('guest_blocks').selectAll().orderBy('id').execute(),
      servedBy: await db.selectFrom('staff_categories').selectAll().execute(),
      audit: await db.selectFrom('audit_entries').selectAll().execute(),
    };
  };

  it('covers every route of the company-admin table', () => {
    expect(ATTEMPTS.map((a) => a.name).sort()).toEqual(Object.keys(companyAdminRoutes).sort());
  });

  it.each(ATTEMPTS)('$name is refused to each of them, and changes nothing', async (attempt) => {
    const route = adminRoutes[attempt.name];
    const url = `/api${routeUrl(route, { id: COMPANY, ...attempt.params }, attempt.query)}`;
    const before = await snapshot();
    for (const caller of callers) {
      const response = await t.app.inject({
        method: route.method,
        url,
        ...(attempt.body ? { body: attempt.body } : {}),
        headers: caller.token ? bearer(caller.token) : {},
      });
      expect(response.statusCode, `${caller.who}: ${response.body}`).toBe(caller.status);
      expect(response.json().error.code, caller.who).toBe(caller.code);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("lets the foreign admin act on its own company's path only", async () => {
    // The same token on its own company's categories works: the refusals above are about the
    // company, not a broken token.
    const foreign = callers.find((c) => c.who === "another company's admin");
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/company/${OTHER}/categories`,
      headers: bearer(foreign?.token ?? ''),
    });
    expect(response.statusCode).toBe(200);
  });
});
