import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChatSession } from '@frontdesk/chat';
import { roomOccupants, type RoomAdmin } from '@frontdesk/chat/server';
import {
  callRoomJid,
  callStateSchema,
  envelope,
  PEER_GONE_GRACE_MS,
  supervisorSchema,
} from '@frontdesk/protocol';
import { buildTestAppWithChat, guestInRoom, type TestAppWithChat } from './chat-server.ts';
import {
  buildReplica,
  callApi,
  guestWithCall,
  loginStaff,
  markAnswered,
  staffIdOf,
} from './helper.ts';

const DEMO = 5;
const SALES = 1;

/**
 * Decision 0037: an answered call whose guest and agent both left its chat room — both pages
 * closed without hanging up — ends after the grace a reloading console gets, so it is no ghost in
 * the supervisor's view; a side that is there, or comes back within the grace, keeps it.
 */
describe('answered calls both sides left (CallPresence)', () => {
  let t: TestAppWithChat;
  let admin: RoomAdmin;
  let adminToken: string;
  let adaId: number;
  const sessions: ChatSession[] = [];

  beforeAll(async () => {
    t = await buildTestAppWithChat('call-presence');
    admin = { adminApiUrl: t.xmpp.adminApiUrl, domain: t.xmpp.domain };
    [adminToken, adaId] = await Promise.all([
      loginStaff(t.app, 'admin@frontdesk.demo'),
      staffIdOf(t.app, 'ada@frontdesk.demo'),
    ]);
  });
  afterAll(async () => {
    await Promise.all(sessions.map((session) => session.close()));
    await t?.close();
  });

  /**
   * A guest's call that Ada answered, both in its chat room as their pages are. Every sweep looks
   * at every answered call: each test leaves its call with a side present, so only the test's own
   * call can end.
   */
  async function answeredCallInRoom() {
    const call = await guestWithCall(t.app, DEMO, SALES);
    await markAnswered(t.app, call.callId);
    const room = callRoomJid(call.callId, t.xmpp.domain);
    const guest = await guestInRoom(t.xmpp.wsUrl, call, room);
    sessions.push(guest);
    return { ...call, room, guest, agent: await agentInRoom(room) };
  }

  /** An answered call whose guest and agent have both left its room. */
  async function answeredCallBothLeft() {
    const call = await answeredCallInRoom();
    await Promise.all([call.guest.close(), call.agent.close()]);
    await roomHolds(call.room, []);
    return call;
  }

  /** Ada's console entering the call's room (again, after a reload). */
  async function agentInRoom(room: string): Promise<ChatSession> {
    const { chat } = await t.signIn('ada@frontdesk.demo', `web-${sessions.length}`);
    sessions.push(chat);
    await chat.joinRoom(room, { nick: chat.username });
    return chat;
  }

  /** Who the chat server has in the room, once it is `expected`. */
  const roomHolds = (room: string, expected: string[]) =>
    expect
      .poll(async () => (await roomOccupants(admin, room.split('@')[0] as string))?.sort())
      .toEqual(expected.sort());

  const stateOf = async (callId: string) => {
    const response = await callApi(t.app, 'GET', `calls/${callId}`, undefined, adminToken);
    return envelope(callStateSchema).parse(response.json()).data.status;
  };

  const supervisedCalls = async () => {
    const response = await callApi(t.app, 'GET', 'reports/supervisor', undefined, adminToken);
    const view = envelope(supervisorSchema).parse(response.json()).data;
    return view.agents.flatMap((agent) => agent.calls.map((call) => call.callId));
  };

  /**
   * Moves the call's absence `ms` into the past, by the database's clock the sweep reads: time
   * passing without a wait. `from`: the absence as a sweep kept it, or one beginning now.
   */
  const absenceEarlierBy = (callId: string, ms: number, from = sql`absent_since`) =>
    sql`
      update call_reports set absent_since = ${from} - ${ms} * interval '1 millisecond'
      where call_id = ${callId}
    `.execute(t.app.db);

  it('keeps a call one side is still in, however long the other is away', async () => {
    const call = await answeredCallInRoom();
    await call.agent.close();
    await roomHolds(call.room, [call.guest.username]);
    expect(await t.app.callPresence.sweep()).toEqual([]);
    // Even an absence long over does not end it while a side is there.
    await absenceEarlierBy(call.callId, 4 * PEER_GONE_GRACE_MS, sql`now()`);
    expect(await t.app.callPresence.sweep()).toEqual([]);
    expect(await stateOf(call.callId)).toBe('answered');
  });

  it('keeps a call both left while the agent reloads and comes back within the grace', async () => {
    const call = await answeredCallBothLeft();
    expect(await t.app.callPresence.sweep()).toEqual([]);
    const reloaded = await agentInRoom(call.room);
    await roomHolds(call.room, [reloaded.username]);
    await absenceEarlierBy(call.callId, PEER_GONE_GRACE_MS);
    expect(await t.app.callPresence.sweep()).toEqual([]);
    expect(await stateOf(call.callId)).toBe('answered');
    expect(await supervisedCalls()).toContain(call.callId);
  });

  // Decision 0038: one replica sweeps at a time, and another may take over within a grace.
  it('carries an absence one replica found over to the replica that sweeps next', async () => {
    const call = await answeredCallBothLeft();
    expect(await t.app.callPresence.sweep()).toEqual([]);
    // Only the absence this sweep kept, moved back, can have outlasted the grace.
    await absenceEarlierBy(call.callId, PEER_GONE_GRACE_MS);
    const replica = await buildReplica(t);
    try {
      const ended = await replica.app.callPresence.sweep();
      expect(ended.map((row) => row.call_id)).toEqual([call.callId]);
    } finally {
      await replica.close();
    }
  });

  it('ends no call early when the replica that sweeps next has a clock running ahead', async () => {
    const call = await answeredCallBothLeft();
    expect(await t.app.callPresence.sweep()).toEqual([]);
    const ahead = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 60 * 60_000);
    try {
      expect(await t.app.callPresence.sweep()).toEqual([]);
    } finally {
      ahead.mockRestore();
    }
    expect(await stateOf(call.callId)).toBe('answered');
    // A side back, so the next tests' sweeps leave the call be.
    await roomHolds(call.room, [(await agentInRoom(call.room)).username]);
  });

  it('ends a call both sides left once the grace is over, ended by their absence, and the supervisor sees no ghost', async () => {
    const call = await answeredCallInRoom();
    expect(await supervisedCalls()).toContain(call.callId);
    await Promise.all([call.guest.close(), call.agent.close()]);
    await roomHolds(call.room, []);
    expect(await t.app.callPresence.sweep()).toEqual([]);
    // Not before the grace a reload gets: the console could still come back.
    await absenceEarlierBy(call.callId, PEER_GONE_GRACE_MS / 2);
    expect(await t.app.callPresence.sweep()).toEqual([]);
    expect(await stateOf(call.callId)).toBe('answered');

    await absenceEarlierBy(call.callId, PEER_GONE_GRACE_MS / 2);
    const ended = await t.app.callPresence.sweep();
    expect(ended.map((row) => row.call_id)).toEqual([call.callId]);
    expect(await stateOf(call.callId)).toBe('ended');
    const report = await t.app.db
      .selectFrom('call_reports')
      .select(['ended_by', 'end_reason', 'agent_id'])
      .where('call_id', '=', call.callId)
      .executeTakeFirstOrThrow();
    expect(report).toEqual({ ended_by: 'absence', end_reason: 'completed', agent_id: adaId });
    expect(await supervisedCalls()).not.toContain(call.callId);
    // The call's chat room went with it, and the agent may no longer take it up again.
    expect(await roomOccupants(admin, call.room.split('@')[0] as string)).toBeUndefined();
    const rejoin = await callApi(
      t.app,
      'POST',
      `calls/${call.callId}/rejoin`,
      {},
      await loginStaff(t.app, 'ada@frontdesk.demo'),
    );
    expect(rejoin.statusCode).toBe(409);
    // A later sweep leaves the ended call as it is.
    expect(await t.app.callPresence.sweep()).toEqual([]);
  });
});
