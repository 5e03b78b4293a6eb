import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_RESUME_WINDOW_MS, envelope, rejoinedCallSchema } from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import {
  buildTestApp,
  callApi,
  claimCall,
  guestWithCall,
  loginStaff,
  staffIdOf,
  type TestApp,
} from '../helper.ts';
import { startTestJanus, type TestJanus } from '../janus.ts';

const company = SEEDED_COMPANY.demo;

/**
 * decision 0027: a reloaded console takes its live call up again with `POST /calls/:id/rejoin`,
 * which hands out a fresh entry to the call's Janus room. The call id is no key — colleagues see
 * it in the queue, a supervisor in reports — only the sign-in of the agent who took the call is,
 * and only while the call is live.
 */
describe('attack: rejoining someone else’s call', () => {
  let janus: TestJanus;
  let t: TestApp;
  let ada: string;
  const rejoin = (callId: string, token?: string) =>
    callApi(t.app, 'POST', `calls/${callId}/rejoin`, undefined, token);
  /** A guest's call of the demo company, taken by Ada. */
  const answeredCall = async () => {
    const guest = await guestWithCall(t.app, company, 1);
    await claimCall(t.app, ada, guest, 1);
    return guest;
  };
  const expectRefused = (
    response: Awaited<ReturnType<typeof rejoin>>,
    status: number,
    code: string,
  ) => {
    expect(response.statusCode).toBe(status);
    expect(response.json().error.code).toBe(code);
    // Nothing of the room: no pin, no entry token, no relay credentials.
    expect(response.body).not.toContain('"pin"');
    expect(response.body).not.toContain('"token"');
    expect(response.body).not.toContain('iceServers');
  };
  let victim: Awaited<ReturnType<typeof answeredCall>>;

  beforeAll(async () => {
    janus = await startTestJanus('attack-rejoin', [21300, 21310]);
    t = await buildTestApp(janus.env);
    ada = await loginStaff(t.app, 'ada@frontdesk.demo');
    victim = await answeredCall();
  });
  afterAll(async () => {
    await t?.close();
    await janus?.stop();
  });

  it('another agent of the company, knowing the call id, is refused and handed nothing', async () => {
    const bo = await loginStaff(t.app, 'bo@frontdesk.demo');
    expectRefused(await rejoin(victim.callId, bo), 403, 'not_your_call');
  });

  it('the company’s admin cannot step into an agent’s call either', async () => {
    const ann = await loginStaff(t.app, 'admin@frontdesk.demo');
    expectRefused(await rejoin(victim.callId, ann), 403, 'not_your_call');
  });

  it('staff of another company are refused', async () => {
    const cy = await loginStaff(t.app, 'cy@frontdesk.demo');
    expectRefused(await rejoin(victim.callId, cy), 403, 'not_your_call');
    const zoe = await loginStaff(t.app, 'zoe@frontdesk.demo');
    expectRefused(await rejoin(victim.callId, zoe), 403, 'not_your_call');
  });

  it('the call’s own guest cannot take the agent’s place', async () => {
    expectRefused(await rejoin(victim.callId, victim.token), 403, 'staff_only');
  });

  it('without a token, nothing', async () => {
    expectRefused(await rejoin(victim.callId), 401, 'unauthenticated');
  });

  it('a call id that is not one is refused, naming callId', async () => {
    const response = await rejoin('not-a-call-id', ada);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('callId');
  });

  it('the agent itself cannot revive a call that ended', async () => {
    const guest = await answeredCall();
    const end = await callApi(
      t.app,
      'POST',
      `calls/${guest.callId}/end`,
      { reason: 'completed' },
      guest.token,
    );
    expect(end.statusCode).toBe(200);
    expectRefused(await rejoin(guest.callId, ada), 409, 'call_over');
  });

  it('nor a call still waiting, which nobody took', async () => {
    const waiting = await guestWithCall(t.app, company, 1);
    expectRefused(await rejoin(waiting.callId, ada), 403, 'not_your_call');
  });

  it('nor a call it handed to a colleague', async () => {
    const guest = await answeredCall();
    const bo = await staffIdOf(t.app, 'bo@frontdesk.demo');
    await t.app.db
      .updateTable('call_reports')
      .set({ transfer_to_staff_id: bo })
      .where('call_id', '=', guest.callId)
      .execute();
    expectRefused(await rejoin(guest.callId, ada), 409, 'call_over');
  });

  it('nor a call whose guest left over a minute ago', async () => {
    const guest = await answeredCall();
    await t.app.db
      .updateTable('call_reports')
      .set({ guest_exit_at: new Date(Date.now() - CALL_RESUME_WINDOW_MS - 5000) })
      .where('call_id', '=', guest.callId)
      .execute();
    expectRefused(await rejoin(guest.callId, ada), 409, 'call_over');
  });

  it('the agent who took the call gets it back with a fresh entry to its room', async () => {
    const response = await rejoin(victim.callId, ada);
    expect(response.statusCode).toBe(200);
    const call = envelope(rejoinedCallSchema).parse(response.json()).data;
    expect(call).toMatchObject({
      callId: victim.callId,
      guestUsername: victim.username,
      categoryId: 1,
      callMethod: 'mediaServer',
      room: { room: victim.callId },
      onHold: false,
    });
    // What the console shows again, and only that: the claim's fields, when the call was
    // answered (as stored, not the time of asking) and whether it is held.
    expect(Object.keys(response.json().data).sort()).toEqual(
      [
        'answeredAt',
        'callId',
        'callMethod',
        'callType',
        'categoryId',
        'guestJabberUsername',
        'guestUsername',
        'onHold',
        'reportId',
        'room',
      ].sort(),
    );
    const stored = await t.app.db
      .selectFrom('call_reports')
      .select('answered_at')
      .where('call_id', '=', victim.callId)
      .executeTakeFirstOrThrow();
    expect(call.answeredAt).toBe(stored.answered_at?.toISOString());
    // Again and again (each reload): the call stays answered by the same agent.
    const again = await rejoin(victim.callId, ada);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.answeredAt).toBe(call.answeredAt);
    const state = await callApi(t.app, 'GET', `calls/${victim.callId}`, undefined, victim.token);
    expect(state.json().data).toMatchObject({ status: 'answered' });
  });

  it('a call its agent put on hold comes back held, and resumed once resumed', async () => {
    const guest = await answeredCall();
    const hold = (onHold: boolean) =>
      callApi(t.app, 'POST', `calls/${guest.callId}/hold`, { onHold }, ada);
    expect((await hold(true)).statusCode).toBe(204);
    const held = await rejoin(guest.callId, ada);
    expect(held.statusCode).toBe(200);
    expect(held.json().data.onHold).toBe(true);
    expect((await hold(false)).statusCode).toBe(204);
    expect((await rejoin(guest.callId, ada)).json().data.onHold).toBe(false);
    // A colleague learns nothing of the hold either.
    const bo = await loginStaff(t.app, 'bo@frontdesk.demo');
    expect((await hold(true)).statusCode).toBe(204);
    const refused = await rejoin(guest.callId, bo);
    expectRefused(refused, 403, 'not_your_call');
    expect(refused.body).not.toContain('onHold');
    expect(refused.body).not.toContain('answeredAt');
  });
});
