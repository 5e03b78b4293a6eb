import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, supervisorSchema } from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import {
  bearer,
  buildTestApp,
  guestWithCall,
  loginGuest,
  loginStaff,
  markAnswered,
  type TestApp,
} from '../helper.ts';

const OURS = SEEDED_COMPANY.demo;
const THEIRS = SEEDED_COMPANY.aroundTheClock;

/**
 * Attack: someone other than a company's own admins watches its floor — who is in which call,
 * with which guest, and who waits. Anonymous, a guest, one of its own agents: refused. Another
 * company's admin, with a valid admin token: sees its own company only, never a call, guest or
 * member of ours.
 */
describe('attack: the supervisor view by anyone but the company’s own admins', () => {
  let t: TestApp;
  let ourAgent: string;
  let theirAdmin: string;
  let guest: string;
  let ourAnswered: { callId: string; username: string };
  let ourWaiting: { callId: string; username: string };

  beforeAll(async () => {
    t = await buildTestApp();
    [ourAgent, theirAdmin] = await Promise.all([
      loginStaff(t.app, 'ada@frontdesk.demo'),
      loginStaff(t.app, 'zoe@frontdesk.demo'),
    ]);
    guest = (await loginGuest(t.app, OURS)).token;
    ourAnswered = await guestWithCall(t.app, OURS, 1);
    await markAnswered(t.app, ourAnswered.callId);
    ourWaiting = await guestWithCall(t.app, OURS, 2);
  });
  afterAll(() => t.close());

  const get = (token?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/reports/supervisor',
      ...(token ? { headers: bearer(token) } : {}),
    });

  it('answers 401 without a token, 403 to a guest and to an agent of the company', async () => {
    expect((await get()).statusCode).toBe(401);
    expect((await get(guest)).statusCode).toBe(403);
    const agent = await get(ourAgent);
    expect(agent.statusCode).toBe(403);
    // Not a byte of the floor comes with the refusal.
    for (const secret of [ourAnswered.callId, ourWaiting.callId, 'Ada']) {
      expect(agent.body).not.toContain(secret);
    }
  });

  it("shows another company's admin that company alone", async () => {
    const response = await get(theirAdmin);
    expect(response.statusCode).toBe(200);
    const data = envelope(supervisorSchema).parse(response.json()).data;
    for (const secret of [
      ourAnswered.callId,
      ourWaiting.callId,
      ourAnswered.username,
      ourWaiting.username,
      'Ada',
    ]) {
      expect(response.body).not.toContain(secret);
    }
    const theirStaff = await t.app.db
      .selectFrom('staff')
      .select('id')
      .where('company_id', '=', THEIRS)
      .where('active', '=', true)
      .execute();
    expect(data.agents.map((agent) => agent.id).sort()).toEqual(
      theirStaff.map((row) => row.id).sort(),
    );
  });
});
