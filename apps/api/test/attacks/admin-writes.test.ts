import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import { ACCOUNT_LIMITS } from '../../src/plugins/rate-limits.ts';
import { bearer, buildTestApp, loginStaff, type TestApp } from '../helper.ts';

const COMPANY = SEEDED_COMPANY.demo;

/**
 * Attack: a script with an admin's token changes the company as fast as the API answers, each
 * change keeping an audit entry and taking the company's lock. Writes are limited per member of
 * staff; reading goes on, and another member is not slowed by it.
 */
describe('attack: an admin’s token writing at request speed', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await loginStaff(t.app, 'admin@frontdesk.demo');
  });
  afterAll(() => t.close());

  const rename = (index: number) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/company/${COMPANY}`,
      headers: bearer(admin),
      body: { welcomeMsg: `Welcome, visitor ${index}` },
    });

  it('stops the writes past the limit with 429, and reading still works', async () => {
    const { max } = ACCOUNT_LIMITS.adminWrites;
    const statuses: number[] = [];
    for (let index = 0; index <= max; index += 1) statuses.push((await rename(index)).statusCode);
    expect(statuses.slice(0, max).every((status) => status === 200)).toBe(true);
    const refused = await rename(max + 1);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: { code: 'rate_limited' } });

    const read = await t.app.inject({
      method: 'GET',
      url: `/api/company/${COMPANY}/audit?limit=1`,
      headers: bearer(admin),
    });
    expect(read.statusCode).toBe(200);
    // Nothing past the limit was written: the newest entry is the last one let through.
    expect(JSON.stringify(read.json())).toContain(`Welcome, visitor ${max - 1}`);
  });
});
