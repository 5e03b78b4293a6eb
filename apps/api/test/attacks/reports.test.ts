import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, reportCallPageSchema, reportSummarySchema } from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import {
  bearer,
  buildTestApp,
  loginGuest,
  loginStaff,
  staffIdOf,
  type TestApp,
} from '../helper.ts';
import { addConversation, addGuest, after } from '../report-fixture.ts';

const OURS = SEEDED_COMPANY.demo;
const THEIRS = SEEDED_COMPANY.aroundTheClock;
const DAY = '2026-06-01';

/**
 * Attack: someone other than a company's own admins reads its reports — anonymous, a guest, one
 * of its agents, or the admin of another company with a perfectly valid admin token, naming our
 * calls, agents and categories. Through the public REST interface, none of them learns anything
 * of ours: not a figure, not a row of the list or the CSV, not that a call exists.
 */
describe('attack: reports by anyone but the company’s own admins', () => {
  let t: TestApp;
  let ourAdmin: string;
  let ourAgent: string;
  let theirAdmin: string;
  let guest: string;
  let ourCall: string;
  let theirCall: string;
  let ourAgentId: number;

  beforeAll(async () => {
    t = await buildTestApp();
    const { db } = t.app;
    [ourAdmin, ourAgent, theirAdmin] = await Promise.all([
      loginStaff(t.app, 'admin@frontdesk.demo'),
      loginStaff(t.app, 'ada@frontdesk.demo'),
      loginStaff(t.app, 'zoe@frontdesk.demo'),
    ]);
    guest = (await loginGuest(t.app, OURS)).token;
    ourAgentId = await staffIdOf(t.app, 'ada@frontdesk.demo');
    const start = '2026-06-01T10:00:00Z';
    const ours = await addConversation(db, OURS, await addGuest(db, OURS), [
      {
        at: new Date(start),
        categoryId: 1,
        answeredAt: after(start, 5),
        agentId: ourAgentId,
        endedAt: after(start, 65),
        rating: 5,
      },
    ]);
    const theirs = await addConversation(db, THEIRS, await addGuest(db, THEIRS), [
      { at: new Date(start), endedAt: after(start, 30) },
    ]);
    ourCall = ours[0]?.callId ?? '';
    theirCall = theirs[0]?.callId ?? '';
  });
  afterAll(() => t.close());

  const get = (path: string, token?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/reports/${path}`,
      ...(token ? { headers: bearer(token) } : {}),
    });
  const paths = () => [
    `summary?from=${DAY}&to=${DAY}`,
    `calls?from=${DAY}&to=${DAY}`,
    `calls?from=${DAY}&to=${DAY}&format=csv`,
    `calls/${ourCall}`,
  ];

  it('answers 401 without a token, 403 to a guest and to an agent of the company', async () => {
    for (const path of paths()) {
      expect((await get(path)).statusCode, path).toBe(401);
      expect((await get(path, guest)).statusCode, path).toBe(403);
      const agent = await get(path, ourAgent);
      expect(agent.statusCode, path).toBe(403);
      // Not a byte of the report comes with the refusal.
      expect(agent.body).not.toContain(ourCall);
    }
  });

  it("gives another company's admin only that company's own figures, whatever it names", async () => {
    for (const filter of ['', `&agentId=${ourAgentId}`, '&categoryId=1']) {
      const response = await get(`summary?from=${DAY}&to=${DAY}${filter}`, theirAdmin);
      expect(response.statusCode).toBe(200);
      const figures = envelope(reportSummarySchema).parse(response.json()).data;
      // Their one abandoned call, or nothing once narrowed to our agent or category.
      expect(figures.calls).toBe(filter === '' ? 1 : 0);
      expect(figures.answered).toBe(0);
      expect(figures.csat.responses).toBe(0);
      expect(figures.agents).toEqual([]);
    }
  });

  it("lists and exports none of our calls to another company's admin", async () => {
    const list = await get(`calls?from=${DAY}&to=${DAY}`, theirAdmin);
    expect(
      envelope(reportCallPageSchema)
        .parse(list.json())
        .data.calls.map((c) => c.callId),
    ).toEqual([theirCall]);
    const csv = await get(`calls?from=${DAY}&to=${DAY}&format=csv`, theirAdmin);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(theirCall);
    expect(csv.body).not.toContain(ourCall);
    // Our admin's own list holds ours and not theirs.
    const own = await get(`calls?from=${DAY}&to=${DAY}&format=csv`, ourAdmin);
    expect(own.body).toContain(ourCall);
    expect(own.body).not.toContain(theirCall);
  });

  it("answers another company's call exactly as a call that never was", async () => {
    const nowhere = ourCall.replace(/--.*/, '--nosuchcall');
    const foreign = await get(`calls/${ourCall}`, theirAdmin);
    const unknown = await get(`calls/${nowhere}`, theirAdmin);
    expect(foreign.statusCode).toBe(404);
    // The same words, but for the id each asked about.
    expect(foreign.body.replace(ourCall, 'ID')).toBe(unknown.body.replace(nowhere, 'ID'));
  });

  it.each([
    ['from=2026-13-01&to=2026-06-01', 'from'],
    ['from=2026-06-01&to=yesterday', 'to'],
    ['from=2026-06-02&to=2026-06-01', 'to'],
    [`from=${DAY}&to=${DAY}&categoryId=one`, 'categoryId'],
    [`from=${DAY}&to=${DAY}&shortAbandonSeconds=-1`, 'shortAbandonSeconds'],
    [`from=${DAY}&to=${DAY}&serviceLevelTarget=2`, 'serviceLevelTarget'],
  ])('refuses a summary of %s with 400 naming %s', async (query, field) => {
    const response = await get(`summary?${query}`, ourAdmin);
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().error.fields)).toContain(field);
  });

  it.each([
    [`from=${DAY}&to=${DAY}&limit=0`, 'limit'],
    [`from=${DAY}&to=${DAY}&limit=201`, 'limit'],
    [`from=${DAY}&to=${DAY}&outcome=stolen`, 'outcome'],
    [`from=${DAY}&to=${DAY}&held=1`, 'held'],
    [`from=${DAY}&to=${DAY}&poorQuality=yes`, 'poorQuality'],
    [`from=${DAY}&to=${DAY}&cursor=bm90LWEtY3Vyc29y`, 'cursor'],
    [`from=${DAY}&to=${DAY}&format=xlsx`, 'format'],
    // No report names a company: the caller's own is the only one.
    [`from=${DAY}&to=${DAY}&companyId=${OURS}`, 'companyId'],
  ])('refuses a list of %s with 400 naming %s', async (query, field) => {
    const response = await get(`calls?${query}`, theirAdmin);
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json().error)).toContain(field);
  });

  it('refuses a call id that is not one with 400', async () => {
    const response = await get('calls/not-a-call-id', ourAdmin);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toHaveProperty('callId');
  });
});
