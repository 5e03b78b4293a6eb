import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_RESUME_WINDOW_MS, callResumeSchema, envelope } from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import {
  answeredCall,
  buildTestApp,
  callApi,
  guestWithCall,
  loginGuest,
  loginStaff,
  type TestApp,
} from '../helper.ts';

const company = SEEDED_COMPANY.demo;
const resume = (t: TestApp, callId: string, token?: string) =>
  callApi(t.app, 'POST', `calls/${callId}/resume`, undefined, token);
const leftAgo = (t: TestApp, callId: string, ms: number) =>
  t.app.db
    .updateTable('call_reports')
    .set({ guest_exit_at: new Date(Date.now() - ms) })
    .where('call_id', '=', callId)
    .execute();

/**
 * decision 0025: a reloaded guest page takes its call up again with `POST /calls/:id/resume`.
 * What makes that safe: the call id is no key — others may have seen it in a room or a report —
 * only the credential of the guest that owns the call is, and only while the call is live and
 * the guest left it less than a minute ago.
 */
describe('attack: resuming someone else’s call', () => {
  let t: TestApp;
  let victim: Awaited<ReturnType<typeof guestWithCall>>;

  beforeAll(async () => {
    t = await buildTestApp();
    victim = await guestWithCall(t.app, company, 1);
  });
  afterAll(() => t.close());

  it('another guest of the company, knowing the call id, is refused and handed nothing', async () => {
    const attacker = await loginGuest(t.app, company);
    const response = await resume(t, victim.callId, attacker.token);
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('not_your_call');
    expect(response.body).not.toContain('janusToken');
    expect(response.body).not.toContain('password');
  });

  it('a guest of another company is refused', async () => {
    const foreign = await loginGuest(t.app, SEEDED_COMPANY.aroundTheClock);
    const response = await resume(t, victim.callId, foreign.token);
    expect(response.statusCode).toBe(403);
    expect(response.body).not.toContain('janusToken');
  });

  it('staff cannot take a guest’s place in its call', async () => {
    const agent = await loginStaff(t.app, 'ada@frontdesk.demo');
    const response = await resume(t, victim.callId, agent);
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('guests_only');
  });

  it('without a token, nothing', async () => {
    const response = await resume(t, victim.callId);
    expect(response.statusCode).toBe(401);
  });

  it('a call id that is not one is refused, naming callId', async () => {
    const response = await resume(t, 'not-a-call-id', victim.token);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('callId');
  });

  it('the owner itself cannot revive a call left more than a minute ago', async () => {
    const stale = await guestWithCall(t.app, company, 1);
    await leftAgo(t, stale.callId, CALL_RESUME_WINDOW_MS + 5000);
    const response = await resume(t, stale.callId, stale.token);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('resume_expired');
  });

  it('a waiting call whose guest stopped asking for its place over a minute ago stays lost', async () => {
    const stale = await guestWithCall(t.app, company, 1);
    await t.app.db
      .updateTable('call_reports')
      .set({ guest_seen_at: new Date(Date.now() - CALL_RESUME_WINDOW_MS - 5000) })
      .where('call_id', '=', stale.callId)
      .execute();
    const response = await resume(t, stale.callId, stale.token);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('resume_expired');
  });

  it('nor an ended call', async () => {
    const ended = await guestWithCall(t.app, company, 1);
    const end = await callApi(
      t.app,
      'POST',
      `calls/${ended.callId}/end`,
      { reason: 'abandoned' },
      ended.token,
    );
    expect(end.statusCode).toBe(200);
    const response = await resume(t, ended.callId, ended.token);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('call_over');
  });
});

describe('resuming one’s own call', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('a waiting call comes back in its place, with fresh chat and media credentials', async () => {
    await guestWithCall(t.app, company, 1);
    const second = await guestWithCall(t.app, company, 1);
    const place = async () =>
      (await callApi(t.app, 'GET', `calls/${second.callId}`, undefined, second.token)).json().data
        .queue;
    const before = await place();
    expect(before.position).toBeGreaterThan(1);
    // The page went away a moment ago (its pagehide beacon stamped the exit).
    await leftAgo(t, second.callId, 2000);
    const response = await resume(t, second.callId, second.token);
    expect(response.statusCode).toBe(200);
    const resumed = envelope(callResumeSchema).parse(response.json()).data;
    expect(resumed).toMatchObject({
      callId: second.callId,
      originCallId: second.callId,
      status: 'waiting',
      categoryId: 1,
      agentJabberUsername: null,
    });
    expect(resumed.services.xmpp.jid).toBe(second.services.xmpp.jid);
    // The guest did not leave after all; its place is the one it had, behind the first guest.
    const row = await t.app.db
      .selectFrom('call_reports')
      .select('guest_exit_at')
      .where('call_id', '=', second.callId)
      .executeTakeFirstOrThrow();
    expect(row.guest_exit_at).toBeNull();
    expect(await place()).toEqual(before);
  });

  it('an answered call comes back with the agent who took it', async () => {
    const guest = await answeredCall(t.app, company, 1);
    const response = await resume(t, guest.callId, guest.token);
    expect(response.statusCode).toBe(200);
    const resumed = envelope(callResumeSchema).parse(response.json()).data;
    expect(resumed.status).toBe('answered');
    expect(resumed.agentJabberUsername).toMatch(/^staff-\d+$/);
  });
});
