import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, wallboardSchema, type Wallboard } from '@frontdesk/protocol';
import { hashPassword } from '../src/auth/password.ts';
import {
  buildTestApp,
  callApi,
  guestWithCall,
  loginGuest,
  loginStaff,
  staffIdOf,
  type TestApp,
} from './helper.ts';

const DEMO = 5;
const AROUND_THE_CLOCK = 12;
const SALES = 1;
const SUPPORT = 2;
const BILLING = 3;
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** A zone whose clock reads between 13:00 and 13:59 now, so "today" spans the calls below. */
function zoneAtOnePm(now: Date): string {
  const offset = 13 - now.getUTCHours();
  if (offset === 0) return 'Etc/GMT';
  // The Etc zones' signs are POSIX's: Etc/GMT-3 is three hours ahead of UTC.
  return offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

describe('GET /api/reports/wallboard', () => {
  let t: TestApp;
  let adminToken: string;
  const at = (ago: number) => new Date(Date.now() - ago);

  const board = async (token: string): Promise<Wallboard> => {
    const response = await callApi(t.app, 'GET', 'reports/wallboard', undefined, token);
    expect(response.statusCode).toBe(200);
    return envelope(wallboardSchema).parse(response.json()).data;
  };

  /** A call of the demo company made through the API, then given the times of `times`. */
  async function callAt(
    categoryId: number,
    times: {
      created: Date;
      seen?: Date;
      answered?: Date;
      agentEmail?: string;
      ended?: Date;
      originCallId?: string;
    },
  ): Promise<{ callId: string; username: string }> {
    const { callId, username } = await guestWithCall(t.app, DEMO, categoryId);
    const agentId = times.answered
      ? await staffIdOf(t.app, times.agentEmail ?? 'ada@frontdesk.demo')
      : null;
    await t.app.db
      .updateTable('call_reports')
      .set({
        guest_seen_at: times.seen ?? null,
        agent_id: agentId,
        answered_at: times.answered ?? null,
        ended_at: times.ended ?? null,
        end_reason: times.ended ? (times.answered ? 'completed' : 'abandoned') : null,
        ...(times.originCallId ? { origin_call_id: times.originCallId } : {}),
      })
      .where('call_id', '=', callId)
      .execute();
    // `created_at` is the database's own: no statement of the API may set it.
    await sql`update call_reports set created_at = ${times.created} where call_id = ${callId}`.execute(
      t.app.db,
    );
    return { callId, username };
  }

  const report = (token: string, status: 'available' | 'away' | 'busy') =>
    callApi(t.app, 'PUT', 'staff/me/availability', { status }, token);

  let oldestSalesCall: Date;
  let boToken: string;
  let newestSalesCall: string;

  beforeAll(async () => {
    t = await buildTestApp();
    const now = new Date();

    // The team: Ada (in a call, below) busy as her console says through a call, Ann available,
    // Bo busy; Eve never signed in;
    // Gus is deactivated.
    const passwordHash = await hashPassword('not-used-here');
    const member = (name: string) => ({
      company_id: DEMO,
      email: `${name.toLowerCase()}@example.test`,
      name: `${name} Agent`,
      role: 'agent' as const,
      password_hash: passwordHash,
    });
    await t.app.db
      .insertInto('staff')
      .values([member('Eve'), { ...member('Gus'), active: false }])
      .execute();
    adminToken = await loginStaff(t.app, 'admin@frontdesk.demo');
    const [ada, bo] = await Promise.all([
      loginStaff(t.app, 'ada@frontdesk.demo'),
      loginStaff(t.app, 'bo@frontdesk.demo'),
    ]);
    boToken = bo;
    for (const [token, status] of [
      [adminToken, 'available'],
      [ada, 'busy'],
      [bo, 'busy'],
    ] as const) {
      expect((await report(token, status)).statusCode).toBe(204);
    }

    // Today's conversations.
    const answeredFast = at(30 * MINUTE);
    await callAt(SALES, {
      created: answeredFast,
      answered: new Date(answeredFast.getTime() + 10 * SECOND),
      ended: new Date(answeredFast.getTime() + 5 * MINUTE),
    });
    const answeredSlow = at(40 * MINUTE);
    await callAt(SALES, {
      created: answeredSlow,
      answered: new Date(answeredSlow.getTime() + 45 * SECOND),
      ended: new Date(answeredSlow.getTime() + 6 * MINUTE),
    });
    const abandoned = at(50 * MINUTE);
    await callAt(SUPPORT, {
      created: abandoned,
      ended: new Date(abandoned.getTime() + 30 * SECOND),
    });
    const shortAbandon = at(55 * MINUTE);
    await callAt(SUPPORT, {
      created: shortAbandon,
      ended: new Date(shortAbandon.getTime() + 3 * SECOND),
    });
    // A transferred conversation: answered in 15 s, then its second leg answered by Bo.
    const transferred = at(20 * MINUTE);
    const origin = await callAt(SALES, {
      created: transferred,
      answered: new Date(transferred.getTime() + 15 * SECOND),
      ended: new Date(transferred.getTime() + 2 * MINUTE),
    });
    await callAt(SUPPORT, {
      created: new Date(transferred.getTime() + 2 * MINUTE),
      answered: new Date(transferred.getTime() + 3 * MINUTE),
      agentEmail: 'bo@frontdesk.demo',
      ended: new Date(transferred.getTime() + 9 * MINUTE),
      originCallId: origin.callId,
    });
    // Ada is in a call now, answered in 5 s; yesterday's call counts for nothing today.
    const current = at(2 * MINUTE);
    await callAt(SUPPORT, { created: current, answered: new Date(current.getTime() + 5 * SECOND) });
    const yesterday = at(14 * HOUR);
    await callAt(SALES, {
      created: yesterday,
      answered: new Date(yesterday.getTime() + 5 * SECOND),
      ended: new Date(yesterday.getTime() + MINUTE),
    });

    // Not waiting: a guest who stopped asking a minute ago, a call older than any login, and a
    // waiting call of another company.
    await callAt(SUPPORT, { created: at(3 * MINUTE), seen: at(MINUTE) });
    await callAt(SUPPORT, { created: at(13 * HOUR), seen: at(SECOND) });
    await guestWithCall(t.app, AROUND_THE_CLOCK, 10);
    // Waiting now (made last, as their guests are still asking): two guests in Sales (40 s and
    // 10 s), one without a category (25 s).
    oldestSalesCall = at(40 * SECOND);
    await callAt(SALES, { created: oldestSalesCall, seen: at(0) });
    newestSalesCall = (await callAt(SALES, { created: at(10 * SECOND), seen: at(0) })).callId;
    const uncategorised = await callAt(SUPPORT, { created: at(25 * SECOND), seen: at(0) });
    await t.app.db
      .updateTable('call_reports')
      .set({ category_id: null })
      .where('call_id', '=', uncategorised.callId)
      .execute();

    // The company keeps its day in a zone of its own (set after the calls: it has no hours).
    await t.app.db
      .insertInto('schedules')
      .values({ company_id: DEMO, time_zone: zoneAtOnePm(now) })
      .execute();
    await t.app.db
      .updateTable('categories')
      .set({ deleted_at: new Date() })
      .where('id', '=', BILLING)
      .execute();
  });
  afterAll(() => t?.close());

  it('counts the guests waiting now by category, with the longest wait', async () => {
    const data = await board(adminToken);
    expect(data.waiting).toBe(3);
    expect(data.longestWaitMs).toBeGreaterThanOrEqual(40 * SECOND);
    expect(data.longestWaitMs).toBeLessThan(50 * SECOND);
    expect(data.categories).toEqual([
      {
        id: SALES,
        name: 'Sales',
        waiting: 2,
        longestWaitMs: data.longestWaitMs,
        oldestSince: oldestSalesCall.toISOString(),
      },
      { id: SUPPORT, name: 'Support', waiting: 0, longestWaitMs: null, oldestSince: null },
      {
        id: null,
        name: null,
        waiting: 1,
        longestWaitMs: expect.any(Number),
        oldestSince: expect.any(String),
      },
    ]);
    expect(data.categories[2]?.longestWaitMs).toBeGreaterThanOrEqual(25 * SECOND);
    expect(data.categories[2]?.longestWaitMs).toBeLessThan(40 * SECOND);
  });

  it('tells each active member’s state', async () => {
    const data = await board(adminToken);
    expect(data.agents.map(({ name, state }) => ({ name, state }))).toEqual([
      { name: 'Ada Agent', state: 'inCall' },
      { name: 'Ann Admin', state: 'available' },
      { name: 'Bo Agent', state: 'away' },
      { name: 'Eve Agent', state: 'offline' },
    ]);
  });

  it('counts today’s conversations in the company’s zone', async () => {
    const { today } = await board(adminToken);
    // Answered: fast, slow, the transferred one, Ada's current one. Abandoned: the one after
    // 30 s (the 3 s one is a short abandon). Within 20 s: fast, transferred, current.
    expect(today).toEqual({
      answered: 4,
      abandoned: 1,
      serviceLevel: { thresholdSeconds: 20, target: 0.8, ratio: 3 / 5 },
    });
  });

  it('follows an availability change, a claim and a sign-out', async () => {
    const boState = (data: Wallboard) => data.agents.find((agent) => agent.name === 'Bo Agent');
    expect((await report(boToken, 'available')).statusCode).toBe(204);
    let data = await board(adminToken);
    expect(boState(data)?.state).toBe('available');

    // Bo takes the newest guest in Sales (what a claim leaves in the row: the claim route also
    // opens the call's Janus room): two still wait, and one more is answered today.
    await t.app.db
      .updateTable('call_reports')
      .set({ agent_id: await staffIdOf(t.app, 'bo@frontdesk.demo'), answered_at: new Date() })
      .where('call_id', '=', newestSalesCall)
      .execute();
    // As the console does through a call, Bo says busy.
    expect((await report(boToken, 'busy')).statusCode).toBe(204);
    data = await board(adminToken);
    expect(data.waiting).toBe(2);
    expect(data.categories[0]?.waiting).toBe(1);
    expect(boState(data)?.state).toBe('inCall');
    expect(data.today.answered).toBe(5);

    // A call its pages left unended does not keep an agent who says available "in a call".
    expect((await report(boToken, 'available')).statusCode).toBe(204);
    expect(boState(await board(adminToken))?.state).toBe('available');

    // Signed out, Bo is offline, whatever the last report and the open call say.
    expect((await callApi(t.app, 'POST', 'auth/logout', {}, boToken)).statusCode).toBe(204);
    expect(boState(await board(adminToken))?.state).toBe('offline');
  });

  it('shows another company’s admin only that company', async () => {
    const zoe = await loginStaff(t.app, 'zoe@frontdesk.demo');
    const data = await board(zoe);
    expect(data.waiting).toBe(1);
    expect(data.categories.map((row) => row.name)).toEqual(['Sales', 'Support', 'Billing']);
    expect(data.agents.map((agent) => agent.name).sort()).toEqual([
      'Cy Agent',
      'Di Agent',
      'Zoe Admin',
    ]);
    expect(data.today).toEqual({
      answered: 0,
      abandoned: 0,
      serviceLevel: { thresholdSeconds: 20, target: 0.8, ratio: null },
    });
  });

  it('refuses agents, guests and requests without a sign-in', async () => {
    const agent = await loginStaff(t.app, 'ada@frontdesk.demo');
    const guest = await loginGuest(t.app, DEMO);
    const asAgent = await callApi(t.app, 'GET', 'reports/wallboard', undefined, agent);
    expect(asAgent.statusCode).toBe(403);
    expect(asAgent.json().error.code).toBe('admins_only');
    const asGuest = await callApi(t.app, 'GET', 'reports/wallboard', undefined, guest.token);
    expect(asGuest.statusCode).toBe(403);
    const anonymous = await callApi(t.app, 'GET', 'reports/wallboard', undefined);
    expect(anonymous.statusCode).toBe(401);
    expect(JSON.stringify(anonymous.json())).not.toContain('Ada');
  });
});
