import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCKED_FINGERPRINT, SEEDED_COMPANY } from '../../src/db/seed.ts';
import { formatBrowserUsername } from '@frontdesk/protocol';
import {
  buildTestApp,
  callApi,
  loginGuest,
  loginStaff,
  newBrowserUsername,
  newCallId,
  type TestApp,
  type TestGuest,
} from '../helper.ts';

/**
 * Attack: using the service beyond what a guest may — reviving a refused call, holding several
 * places in the queue, flooding calls and registrations from one guest or from many. Through the
 * public REST interface only, from addresses the test makes up (`remoteAddress`).
 */
describe('attack: abusing the service', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const add = (who: TestGuest, company: number, callId = newCallId(who), from = '10.1.1.1') =>
    t.app.inject({
      method: 'POST',
      url: '/api/call-report/add',
      headers: { authorization: `Bearer ${who.token}` },
      body: { call_id: callId, company, source: 'site' },
      remoteAddress: from,
    });
  const holdCall = (who: TestGuest, origin: string, current: string) =>
    callApi(
      t.app,
      'POST',
      'call-report/hold-call',
      { origin_call_id: origin, current_call_id: current, new_call_id: newCallId(who) },
      who.token,
    );

  it('a blocked guest cannot get a call through hold-call', async () => {
    const blocked = await loginGuest(
      t.app,
      SEEDED_COMPANY.blockList,
      formatBrowserUsername(BLOCKED_FINGERPRINT, 'attacker01'),
    );
    const refused = newCallId(blocked);
    expect((await add(blocked, SEEDED_COMPANY.blockList, refused)).json().data.status).toBe(
      'blocked',
    );
    const revived = await holdCall(blocked, refused, refused);
    expect(revived.statusCode).toBe(409);
    expect(revived.json().error.fields).toHaveProperty('current_call_id');
    const live = await t.app.db
      .selectFrom('call_reports')
      .select('id')
      .where(
        'guest_id',
        '=',
        (
          await t.app.db
            .selectFrom('call_reports')
            .select('guest_id')
            .where('call_id', '=', refused)
            .executeTakeFirstOrThrow()
        ).guest_id,
      )
      .where('status', '=', 'ok')
      .execute();
    expect(live).toEqual([]);
  });

  it('an ended call cannot be continued, a live one still can', async () => {
    const guest = await loginGuest(t.app, SEEDED_COMPANY.demo);
    const first = newCallId(guest);
    expect((await add(guest, SEEDED_COMPANY.demo, first)).statusCode).toBe(201);
    const moved = await holdCall(guest, first, first);
    expect(moved.statusCode).toBe(201);
    // `first` ended when the call moved on: moving it again somewhere new is refused.
    const again = await holdCall(guest, first, first);
    expect(again.statusCode).toBe(409);
  });

  it('one guest holds one place in the queue: a newer call ends the older', async () => {
    const guest = await loginGuest(t.app, SEEDED_COMPANY.demo);
    const calls = [newCallId(guest), newCallId(guest), newCallId(guest)];
    for (const callId of calls) {
      expect((await add(guest, SEEDED_COMPANY.demo, callId)).json().data.status).toBe('ok');
    }
    const open = await t.app.db
      .selectFrom('call_reports')
      .select(['call_id', 'end_reason'])
      .where('call_id', 'in', calls)
      .orderBy('id')
      .execute();
    expect(open).toEqual([
      { call_id: calls[0], end_reason: 'abandoned' },
      { call_id: calls[1], end_reason: 'abandoned' },
      { call_id: calls[2], end_reason: null },
    ]);
  });

  /** The hits counted under `key` in the window under way (none: 0). */
  const hits = async (key: string) =>
    (
      await t.app.db
        .selectFrom('rate_limit_counters')
        .select('hits')
        .where('key', '=', key)
        .executeTakeFirst()
    )?.hits ?? 0;

  it("one guest cannot flood calls, whatever address it uses, nor spend its company's budget", async () => {
    const company = SEEDED_COMPANY.aroundTheClock;
    const guest = await loginGuest(t.app, company);
    // The company's window then opens with this test's first call, so it cannot end mid-count.
    const companyKey = `callsPerCompany:company:${company}`;
    await t.app.db.deleteFrom('rate_limit_counters').where('key', '=', companyKey).execute();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      statuses.push((await add(guest, company, undefined, `10.2.0.${i}`)).statusCode);
    }
    expect(statuses.slice(0, 30).every((s) => s === 201)).toBe(true);
    expect(statuses.slice(30).every((s) => s === 429)).toBe(true);
    // Decision 0043: the calls its own limit refused are not counted against its company.
    expect(await hits(companyKey)).toBe(30);
  });

  it('a call refused for its address is counted against neither the guest nor its company', async () => {
    const company = SEEDED_COMPANY.aroundTheClock;
    const office = '10.5.0.1';
    const [first, second, third] = await Promise.all(
      [0, 1, 2].map(() => loginGuest(t.app, company)),
    );
    if (!first || !second || !third) throw new Error('three guests expected');
    // Two guests spend the address's limit (60 a minute), each within its own (30).
    for (const guest of [first, second]) {
      for (let i = 0; i < 30; i += 1)
        expect((await add(guest, company, undefined, office)).statusCode).toBe(201);
    }
    const companyHitsBefore = await hits(`callsPerCompany:company:${company}`);
    const refused = await add(third, company, undefined, office);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const { id } = await t.app.db
      .selectFrom('guests')
      .select('id')
      .where('username', '=', third.username)
      .where('company_id', '=', company)
      .executeTakeFirstOrThrow();
    expect(await hits(`callsPerGuest:guest:${id}`)).toBe(0);
    expect(await hits(`callsPerCompany:company:${company}`)).toBe(companyHitsBefore);
    // From elsewhere the same guest calls.
    expect((await add(third, company, undefined, '10.5.0.2')).statusCode).toBe(201);
  });

  it('many guests from many addresses meet the company limit', async () => {
    const company = SEEDED_COMPANY.voiceLine;
    const guests = await Promise.all(Array.from({ length: 31 }, () => loginGuest(t.app, company)));
    const statuses: number[] = [];
    // 10 calls each (under the per-guest limit) from 31 guests: 310 > 300 a minute per company.
    for (const [g, guest] of guests.entries()) {
      for (let i = 0; i < 10; i += 1) {
        statuses.push((await add(guest, company, undefined, `10.3.${g}.${i}`)).statusCode);
      }
    }
    expect(statuses.filter((s) => s === 429).length).toBe(10);
    expect(statuses.slice(0, 300).every((s) => s === 201)).toBe(true);
  });

  it('registrations for one company are limited however many addresses send them', async () => {
    const company = SEEDED_COMPANY.inactive;
    const register = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/guest-auth/register',
        body: { username: newBrowserUsername(), companyId: company },
        remoteAddress: `10.4.${Math.floor(i / 250)}.${i % 250}`,
      });
    const statuses: number[] = [];
    for (let i = 0; i < 601; i += 1) statuses.push((await register(i)).statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(600);
    expect(statuses.at(-1)).toBe(429);
    // Another company's visitors are not held back by it.
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/guest-auth/register',
      body: { username: newBrowserUsername(), companyId: SEEDED_COMPANY.demo },
      remoteAddress: '10.4.9.9',
    });
    expect(elsewhere.statusCode).toBe(201);
  });
});

describe('attack: spoofing the address the per-address limits count', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Behind one TLS proxy at 10.9.9.9.
    t = await buildTestApp({ TRUST_PROXY: '10.9.9.9' });
  });
  afterAll(() => t.close());

  const registerVia = (peer: string, forwardedFor: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/guest-auth/register',
      body: { username: newBrowserUsername(), companyId: SEEDED_COMPANY.demo },
      remoteAddress: peer,
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('believes X-Forwarded-For only from the trusted proxy', async () => {
    // A visitor talking to the API directly cannot escape its limit by claiming other addresses.
    const direct: number[] = [];
    for (let i = 0; i < 31; i += 1)
      direct.push((await registerVia('10.8.0.1', `10.7.0.${i}`)).statusCode);
    expect(direct.filter((s) => s === 201)).toHaveLength(30);
    expect(direct.at(-1)).toBe(429);
    // Through the proxy, each visitor is counted as itself.
    const proxied: number[] = [];
    for (let i = 0; i < 31; i += 1)
      proxied.push((await registerVia('10.9.9.9', `10.6.0.${i}`)).statusCode);
    expect(proxied.every((s) => s === 201)).toBe(true);
  });
});

describe('attack: flooding the agents’ queue out of view', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  /** A guest of the demo company waiting in `categoryId`, each from an address of its own. */
  const waitIn = async (categoryId: number, n: number) => {
    const guest = await loginGuest(t.app, SEEDED_COMPANY.demo);
    const callId = newCallId(guest);
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/call-report/add',
      headers: { authorization: `Bearer ${guest.token}` },
      body: {
        call_id: callId,
        company: SEEDED_COMPANY.demo,
        source: 'site',
        category_id: categoryId,
      },
      remoteAddress: `10.5.${Math.floor(n / 250)}.${n % 250}`,
    });
    expect(added.statusCode).toBe(201);
    return callId;
  };
  const waiting = async (query: string) => {
    const agent = await loginStaff(t.app, 'ada@frontdesk.demo');
    const response = await callApi(t.app, 'GET', `calls?status=waiting${query}`, undefined, agent);
    expect(response.statusCode).toBe(200);
    return response.json().data as { callId: string; reportId: number; categoryId: number }[];
  };

  it("a flood in one category hides neither that category's oldest calls nor another's", async () => {
    const firstInSales = await waitIn(1, 0);
    const flood = [];
    for (let i = 1; i <= 120; i += 1) flood.push(await waitIn(1, i));
    const support = await waitIn(2, 999);

    const list = await waiting('');
    const sales = list.filter((c) => c.categoryId === 1);
    expect(sales).toHaveLength(50);
    expect(sales[0]?.callId).toBe(firstInSales);
    expect(list.some((c) => c.callId === support)).toBe(true);

    // The rest of the category, page by page, oldest first.
    const next = await waiting(`&categoryId=1&after=${sales.at(-1)?.reportId}`);
    expect(next.map((c) => c.callId)).toEqual(flood.slice(49, 99));
  });

  it('refuses a page cursor without its category (400 naming the field)', async () => {
    const agent = await loginStaff(t.app, 'ada@frontdesk.demo');
    const response = await callApi(t.app, 'GET', 'calls?status=waiting&after=5', undefined, agent);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toHaveProperty('after');
  });
});
