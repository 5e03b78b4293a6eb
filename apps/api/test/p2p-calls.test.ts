import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintJanusToken } from '@frontdesk/infra';
import { JanusRooms } from '@frontdesk/media/server';
import {
  callIceSchema,
  callListSchema,
  callReportAddedSchema,
  callResumeSchema,
  callStateSchema,
  envelope,
  heldCallSchema,
  rejoinedCallSchema,
  type CompanySettings,
} from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../src/db/seed.ts';
import {
  addCall,
  buildTestApp,
  callApi,
  claimCall,
  loginGuest,
  loginStaff,
  newCallId,
  setCompanySettings,
  type TestApp,
  type TestGuest,
} from './helper.ts';
import { startTestJanus, type TestJanus } from './janus.ts';

const company = SEEDED_COMPANY.demo;
const turnSecret = randomBytes(24).toString('base64url');

/**
 * Issue 23, decision 0045: a call fixes its method when it is made — the company's, but the
 * media server for a recorded call — and a p2p call has no Janus room: the claim and the rejoin
 * hand no room, `/room` refuses, the end touches no Janus and queues no merge, and its two parties
 * get their ICE servers from `/ice`.
 */
describe('p2p calls', () => {
  let janus: TestJanus;
  /** The test's own view of Janus, to see that no room was made. */
  let rooms: JanusRooms;
  let t: TestApp;
  let ada: string;

  beforeAll(async () => {
    janus = await startTestJanus('p2p-calls', [21500, 21510]);
    rooms = new JanusRooms({
      httpUrl: janus.janus.httpUrl,
      adminKey: janus.adminKey,
      token: () => mintJanusToken(janus.tokenSecret, 60),
    });
    t = await buildTestApp({
      ...janus.env,
      TURN_URLS: 'turn:turn.frontdesk.test:3478',
      TURN_SECRET: turnSecret,
    });
    ada = await loginStaff(t.app, 'ada@frontdesk.demo');
  });
  afterAll(async () => {
    await t?.close();
    await janus?.stop();
  });

  const send = (method: 'GET' | 'POST', path: string, token?: string, body?: object) =>
    callApi(t.app, method, path, body, token);

  const setSettings = (settings: Partial<CompanySettings>) =>
    setCompanySettings(t.app, company, settings);

  /** A new guest's call in category 1; answers the guest, the call id and the add's answer. */
  const startCall = async (recording?: 'declined') => {
    const guest = await loginGuest(t.app, company);
    const { callId, response } = await addCall(t.app, guest, company, 1, { recording });
    expect(response.statusCode, response.body).toBe(201);
    return { guest, callId, added: envelope(callReportAddedSchema).parse(response.json()).data };
  };

  /** What `resume` answers the call's guest after a reload (decision 0025). */
  const resumeOf = async (callId: string, token: string) => {
    const response = await send('POST', `calls/${callId}/resume`, token);
    expect(response.statusCode, response.body).toBe(200);
    return envelope(callResumeSchema).parse(response.json()).data;
  };

  const stateOf = async (callId: string, token: string) => {
    const response = await send('GET', `calls/${callId}`, token);
    expect(response.statusCode).toBe(200);
    return envelope(callStateSchema).parse(response.json()).data;
  };

  const rowOf = (callId: string) =>
    t.app.db
      .selectFrom('call_reports')
      .select(['id', 'call_method', 'room_pin', 'media_server_id'])
      .where('call_id', '=', callId)
      .executeTakeFirstOrThrow();

  const claim = (guest: TestGuest) => claimCall(t.app, ada, guest, 1);

  it.each([
    [{ callMethod: 'p2p', recordCalls: false }, undefined, 'p2p'],
    // A recorded call goes through the media server, whatever the company chose.
    [{ callMethod: 'p2p', recordCalls: true, recordingOptional: false }, undefined, 'mediaServer'],
    [{ callMethod: 'p2p', recordCalls: true, recordingOptional: true }, undefined, 'mediaServer'],
    // The guest declined the recording: nothing to record, the company's method holds.
    [{ callMethod: 'p2p', recordCalls: true, recordingOptional: true }, 'declined', 'p2p'],
    [{ callMethod: 'mediaServer', recordCalls: false }, undefined, 'mediaServer'],
  ] as const)(
    'call-report/add with %o and recording %s makes a %s call, and answers so',
    async (settings, recording, method) => {
      await setSettings(settings);
      const { guest, callId, added } = await startCall(recording);
      expect((await rowOf(callId)).call_method).toBe(method);
      // The guest sets the call up from the add's answer, with no question more.
      expect(added).toMatchObject({ status: 'ok', callMethod: method });
      expect((await stateOf(callId, guest.token)).callMethod).toBe(method);
      // A reloaded page sets it up again from the resume's answer.
      expect((await resumeOf(callId, guest.token)).callMethod).toBe(method);
    },
  );

  it('a p2p call keeps its method when the company changes its setting', async () => {
    await setSettings({ callMethod: 'p2p', recordCalls: false });
    const { guest, callId, added } = await startCall();
    await setSettings({ callMethod: 'mediaServer' });
    expect((await stateOf(callId, guest.token)).callMethod).toBe('p2p');
    expect((await resumeOf(callId, guest.token)).callMethod).toBe('p2p');
    // The add asked again (a retry after a lost answer) answers the call as it was made.
    const again = await send('POST', 'call-report/add', guest.token, {
      call_id: callId,
      company,
      source: 'site',
      category_id: 1,
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(envelope(callReportAddedSchema).parse(again.json()).data).toEqual({
      ...added,
      callMethod: 'p2p',
      services: expect.any(Object),
    });
  });

  describe('a p2p call, from its add to its end', () => {
    let guest: TestGuest;
    let callId: string;

    beforeAll(async () => {
      await setSettings({ callMethod: 'p2p', recordCalls: false });
      ({ guest, callId } = await startCall());
    });

    it('lists the waiting call with its method', async () => {
      const response = await send('GET', 'calls?status=waiting', ada);
      expect(response.statusCode).toBe(200);
      const listed = envelope(callListSchema)
        .parse(response.json())
        .data.find((call) => call.callId === callId);
      expect(listed?.callMethod).toBe('p2p');
    });

    it('gives the waiting guest its ICE servers, with a relay credential of its own', async () => {
      const response = await send('POST', `calls/${callId}/ice`, guest.token);
      expect(response.statusCode, response.body).toBe(200);
      const { iceServers } = envelope(callIceSchema).parse(response.json()).data;
      const relay = iceServers.find((server) => server.username !== undefined);
      expect(relay).toMatchObject({
        urls: ['turn:turn.frontdesk.test:3478'],
        username: expect.stringMatching(new RegExp(`^\\d+:${callId}-guest$`)),
        credential: expect.any(String),
      });
    });

    it('the claim makes no Janus room and hands none: room null, method p2p', async () => {
      const claimed = await claim(guest);
      expect(claimed).toMatchObject({ callId, callMethod: 'p2p', room: null });
      expect(await rooms.exists(callId)).toBe(false);
      expect(await rowOf(callId)).toMatchObject({ room_pin: null, media_server_id: null });
      expect((await stateOf(callId, ada)).callMethod).toBe('p2p');
    });

    it('the agent who claimed it gets its own relay credential', async () => {
      const response = await send('POST', `calls/${callId}/ice`, ada);
      expect(response.statusCode, response.body).toBe(200);
      const { iceServers } = envelope(callIceSchema).parse(response.json()).data;
      expect(iceServers.map((server) => server.username)).toContainEqual(
        expect.stringMatching(new RegExp(`^\\d+:${callId}-agent$`)),
      );
    });

    it('the rejoin hands no room either', async () => {
      const response = await send('POST', `calls/${callId}/rejoin`, ada);
      expect(response.statusCode, response.body).toBe(200);
      expect(envelope(rejoinedCallSchema).parse(response.json()).data).toMatchObject({
        callMethod: 'p2p',
        room: null,
      });
      expect(await rooms.exists(callId)).toBe(false);
    });

    it('/room answers 409 p2p_call to both sides, and makes no room', async () => {
      for (const token of [guest.token, ada]) {
        const response = await send('POST', `calls/${callId}/room`, token);
        expect(response.statusCode).toBe(409);
        expect(response.json().error).toMatchObject({
          code: 'p2p_call',
          message: expect.stringContaining('p2p'),
        });
      }
      expect(await rooms.exists(callId)).toBe(false);
    });

    it('ends without a room or a recording, and then gives no ICE servers', async () => {
      const ended = await send('POST', `calls/${callId}/end`, ada, { reason: 'completed' });
      expect(ended.statusCode, ended.body).toBe(200);
      expect(envelope(callStateSchema).parse(ended.json()).data).toMatchObject({
        status: 'ended',
        callMethod: 'p2p',
      });
      const { id } = await rowOf(callId);
      const recordings = await t.app.db
        .selectFrom('call_recordings')
        .select('status')
        .where('call_report_id', '=', id)
        .execute();
      expect(recordings).toEqual([]);
      const ice = await send('POST', `calls/${callId}/ice`, guest.token);
      expect(ice.statusCode).toBe(409);
    });
  });

  it('a transfer leg follows the company and the guest’s recording choice', async () => {
    await setSettings({ callMethod: 'p2p', recordCalls: true, recordingOptional: true });
    const { guest, callId } = await startCall('declined');
    await claim(guest);
    /** Moves the call to a new leg; answers what the guest sets the leg up from. */
    const move = async (newCallId: string, current: string) => {
      const response = await send('POST', 'call-report/hold-call', guest.token, {
        origin_call_id: callId,
        current_call_id: current,
        new_call_id: newCallId,
      });
      expect(response.statusCode, response.body).toBe(201);
      return envelope(heldCallSchema).parse(response.json()).data;
    };
    const second = newCallId(guest);
    // Declined at the add: the new leg is not recorded either, so it stays p2p.
    expect(await move(second, callId)).toEqual({ id: (await rowOf(second)).id, callMethod: 'p2p' });
    expect((await rowOf(second)).call_method).toBe('p2p');
    // A new leg is a new call: it takes the company's method as it is now.
    await setSettings({ callMethod: 'mediaServer' });
    const third = newCallId(guest);
    expect((await move(third, second)).callMethod).toBe('mediaServer');
    expect((await rowOf(third)).call_method).toBe('mediaServer');
    // The same move asked again answers the leg it made, as it was made.
    await setSettings({ callMethod: 'p2p' });
    expect((await move(third, second)).callMethod).toBe('mediaServer');
    expect(await resumeOf(third, guest.token)).toMatchObject({
      callId: third,
      originCallId: callId,
      callMethod: 'mediaServer',
    });
  });
});
