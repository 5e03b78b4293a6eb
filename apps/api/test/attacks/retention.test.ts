import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retentionRoutes, retentionSettingsSchema, routeUrl } from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import { bearer, buildTestApp, loginGuest, loginStaff, type TestApp } from '../helper.ts';

const COMPANY = SEEDED_COMPANY.demo;

/**
 * Attack: a company's retention periods read or changed, or its runs read, by anyone but its
 * admins — anonymous, a guest, its own agent, another company's agent or admin (valid tokens of
 * another company). A shorter period set by a stranger would delete the company's data.
 */
describe('attack: retention periods of another company, or set by an agent', () => {
  let t: TestApp;
  const tokens: Record<string, string | null> = {};

  beforeAll(async () => {
    t = await buildTestApp();
    tokens.anonymous = null;
    tokens.guest = (await loginGuest(t.app, COMPANY)).token;
    tokens.agent = await loginStaff(t.app, 'ada@frontdesk.demo');
    tokens.otherAgent = await loginStaff(t.app, 'cy@frontdesk.demo');
    tokens.otherAdmin = await loginStaff(t.app, 'zoe@frontdesk.demo');
    tokens.admin = await loginStaff(t.app, 'admin@frontdesk.demo');
    // Something to leak: a period of the company's own choosing and a run's counts.
    const set = await attempt({ name: 'updateRetention', body: { recordings: 17 } }, tokens.admin);
    expect(set.statusCode, set.body).toBe(200);
    await t.app.db
      .insertInto('retention_runs')
      .values({ run_at: new Date(), company_id: COMPANY, kind: 'recordings', deleted: 4242 })
      .execute();
  });
  afterAll(() => t.close());

  const attempts = [
    { name: 'retention' },
    { name: 'updateRetention', body: { recordings: 1, guests: 1, auditEntries: 1 } },
    { name: 'retentionRuns' },
  ] as const;

  function attempt(
    which: { name: keyof typeof retentionRoutes; body?: object },
    token: string | null | undefined,
  ) {
    const route = retentionRoutes[which.name];
    return t.app.inject({
      method: route.method,
      url: `/api${routeUrl(route, { id: COMPANY })}`,
      headers: token ? bearer(token) : {},
      ...(which.body ? { body: which.body } : {}),
    });
  }
  const stored = () => t.app.db.selectFrom('company_retention').selectAll().execute();

  it('covers every retention route', () => {
    expect(attempts.map((a) => a.name).sort()).toEqual(Object.keys(retentionRoutes).sort());
  });

  it.each(attempts)(
    '$name: refused to all but the company’s admins, nothing changes',
    async (which) => {
      const before = await stored();
      const refusals = [
        ['anonymous', 401, 'unauthenticated'],
        ['guest', 403, 'staff_only'],
        ['agent', 403, 'admins_only'],
        ['otherAgent', 403, 'admins_only'],
        ['otherAdmin', 403, 'other_company'],
      ] as const;
      for (const [who, status, code] of refusals) {
        const response = await attempt(which, tokens[who]);
        expect(response.statusCode, `${who}: ${response.body}`).toBe(status);
        expect(response.json().error.code, who).toBe(code);
        expect(response.body).not.toContain('4242');
        expect(response.body).not.toContain('"recordings":17');
      }
      expect(await stored()).toEqual(before);
    },
  );

  it('refuses a period out of range, naming the field, and keeps the old one', async () => {
    for (const body of [{ recordings: 0 }, { guests: 3651 }, { uploads: 1.5 }, { chat: 3 }, {}]) {
      const response = await attempt({ name: 'updateRetention', body }, tokens.admin);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      const field = Object.keys(body)[0];
      if (field) expect(response.body, JSON.stringify(body)).toContain(field);
    }
    const read = await attempt({ name: 'retention' }, tokens.admin);
    expect(retentionSettingsSchema.parse(read.json().data).periods.recordings).toBe(17);
  });
});
