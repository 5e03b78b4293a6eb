import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintJanusToken, startJanus, type RunningJanus } from '@frontdesk/infra';
import { JanusRooms, VIDEOROOM_PLUGIN, withPluginHandle } from '@frontdesk/media/server';
import {
  callStateSchema,
  callSummarySchema,
  claimedCallSchema,
  companyDetailsSchema,
  DEFAULT_AVERAGE_WAIT_MS,
  envelope,
  formatBrowserUsername,
  janusTokenSchema,
  roomAccessSchema,
} from '@frontdesk/protocol';
import { BLOCKED_FINGERPRINT, SEEDED_COMPANY } from '../src/db/seed.ts';
import {
  buildTestApp,
  callApi,
  loginActors,
  loginGuest,
  loginStaff,
  newCallId,
  setCompanySettings,
  type TestApp,
  type TestGuest,
} from './helper.ts';

const secret = () => randomBytes(18).toString('base64url');
const janusTokenSecret = secret();
const janusAdminKey = secret();

describe('the call protocol (/api/calls, /api/auth/janus-token)', () => {
  let janusDir: string;
  let janus: RunningJanus;
  /** The test's own view of Janus, to see rooms come and go. */
  let rooms: JanusRooms;
  let t: TestApp;
  let guest: TestGuest;
  let otherGuest: TestGuest;
  /** Ada and Bo are agents of the demo company, Ann its admin; Cy works for company 12. */
  let ada: string;
  let bo: string;
  let ann: string;
  let cy: string;
  let boNick: string;
  let adaNick: string;

  beforeAll(async () => {
    janusDir = await mkdtemp(join(tmpdir(), 'frontdesk-api-calls-'));
    // Janus runs as its own user when we are root: it must enter the folder.
    await chmod(janusDir, 0o711);
    janus = await startJanus({
      dir: join(janusDir, 'janus'),
      // No media here; a range of its own keeps clear of other suites' Janus instances.
      rtpPortRange: [21100, 21110],
      tokenSecret: janusTokenSecret,
      adminKey: janusAdminKey,
      adminSecret: secret(),
      recordingsDir: join(janusDir, 'recordings'),
    });
    rooms = new JanusRooms({
      httpUrl: janus.httpUrl,
      adminKey: janusAdminKey,
      token: () => mintJanusToken(janusTokenSecret, 60),
    });
    t = await buildTestApp({
      JANUS_HTTP_URL: janus.httpUrl,
      JANUS_TOKEN_SECRET: janusTokenSecret,
      JANUS_ADMIN_KEY: janusAdminKey,
    });
    let agent: string;
    ({ guest, otherGuest, agent, foreignAgent: cy } = await loginActors(t.app));
    ada = agent;
    [bo, ann] = await Promise.all([
      loginStaff(t.app, 'bo@frontdesk.demo'),
      loginStaff(t.app, 'admin@frontdesk.demo'),
    ]);
    const nick = async (email: string) => {
      const { id } = await t.app.db
        .selectFrom('staff')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      return `staff-${id}`;
    };
    [adaNick, boNick] = await Promise.all([nick('ada@frontdesk.demo'), nick('bo@frontdesk.demo')]);
  });
  afterAll(async () => {
    await t?.close();
    await janus?.stop();
    await rm(janusDir, { recursive: true, force: true });
  });

  /** The video codec Janus made the call's room for (private rooms list only with the admin key). */
  const videoCodecOf = (room: string) =>
    withPluginHandle(
      { httpUrl: janus.httpUrl, token: mintJanusToken(janusTokenSecret, 60) },
      VIDEOROOM_PLUGIN,
      async (handle) => {
        const { list } = (await handle.message({ request: 'list', admin_key: janusAdminKey }))
          .data as { list: { room: string; videocodec: string }[] };
        return list.find((listed) => listed.room === room)?.videocodec;
      },
    );
  const send = (method: 'GET' | 'POST' | 'PUT', path: string, token?: string, body?: object) =>
    callApi(t.app, method, path, body, token);
  /** Reports a new call of `who` in `categoryId` and answers its call id. */
  const startCall = async (who: TestGuest, categoryId = 1, company = 5) => {
    const callId = newCallId(who);
    const added = await send('POST', 'call-report/add', who.token, {
      call_id: callId,
      company,
      source: 'site',
      category_id: categoryId,
    });
    expect(added.statusCode).toBe(201);
    return callId;
  };
  const claim = (token: string, who: TestGuest, categoryId = 1) =>
    send('POST', 'calls/claim', token, { guestUsername: who.username, categoryId });
  const state = async (callId: string, token = ada) =>
    envelope(callStateSchema).parse((await send('GET', `calls/${callId}`, token)).json()).data;
  const end = (callId: string, token: string, reason = 'completed') =>
    send('POST', `calls/${callId}/end`, token, { reason });
  const expectError = (
    response: { statusCode: number; json: () => { error: { code: string } } },
    status: number,
    code: string,
  ) => {
    expect(response.statusCode).toBe(status);
    expect(response.json().error.code).toBe(code);
  };
  /** A fresh guest of the demo company, waiting in `categoryId`, and its call id. */
  const waitingGuest = async (categoryId = 1) => {
    const who = await loginGuest(t.app, SEEDED_COMPANY.demo);
    return { who, callId: await startCall(who, categoryId) };
  };
  /** A fresh guest whose call Ada has taken. */
  const answeredCall = async () => {
    const waiting = await waitingGuest();
    expect((await claim(ada, waiting.who)).statusCode).toBe(200);
    return waiting;
  };

  describe('POST /api/auth/janus-token', () => {
    it('gives staff, and a guest in a call, a token Janus accepts, as long-lived as a login', async () => {
      const caller = await loginGuest(t.app, 5);
      // SECURITY: a guest without a live call does not reach the media server.
      expectError(await send('POST', 'auth/janus-token', caller.token), 403, 'no_live_call');
      await startCall(caller);
      for (const token of [caller.token, ada]) {
        const response = await send('POST', 'auth/janus-token', token);
        expect(response.statusCode).toBe(200);
        const { janusToken, expiresAt } = envelope(janusTokenSchema).parse(response.json()).data;
        const hours = (Date.parse(expiresAt) - Date.now()) / 3_600_000;
        expect(hours).toBeGreaterThan(11.9);
        expect(hours).toBeLessThanOrEqual(12);
        const session = await fetch(janus.httpUrl, {
          method: 'POST',
          body: JSON.stringify({ janus: 'create', transaction: 'token-check', token: janusToken }),
        });
        expect(((await session.json()) as { janus: string }).janus).toBe('success');
      }
    });

    it('refuses a caller without a valid token (401)', async () => {
      expectError(await send('POST', 'auth/janus-token'), 401, 'unauthenticated');
      expectError(await send('POST', 'auth/janus-token', 'forged'), 401, 'invalid_token');
    });
  });

  describe('POST /api/calls/:callId/room', () => {
    const openRoom = (callId: string, token: string, query = '') =>
      send('POST', `calls/${callId}/room${query}`, token);

    it("creates the guest's room in Janus once, with a pin and the guest's own room token", async () => {
      const callId = await startCall(guest);
      const first = await openRoom(callId, guest.token);
      expect(first.statusCode).toBe(200);
      const access = envelope(roomAccessSchema).parse(first.json()).data;
      expect(access.room).toBe(callId);
      expect(access.pin).toMatch(/^[0-9a-f]{32}$/);
      expect(access.token).toMatch(/^guest\.[A-Za-z0-9_-]{43}$/);
      // The demo company records calls: Janus records the room, the browser names nothing.
      expect(access.recorded).toBe(true);
      expect(first.json().data).not.toHaveProperty('recordingFilename');
      expect(await rooms.exists(callId)).toBe(true);
      // Asking again (a retry, a restarted Janus) keeps the room and its pin.
      const again = envelope(roomAccessSchema).parse(
        (await openRoom(callId, guest.token, '?webview=true')).json(),
      ).data;
      expect(again.pin).toBe(access.pin);
      expect(again.token).toBe(access.token);
    });

    it('gives the agent who claimed the call the same room, and a room token of its own', async () => {
      const { who, callId } = await waitingGuest();
      const guestAccess = envelope(roomAccessSchema).parse(
        (await openRoom(callId, who.token)).json(),
      ).data;
      expect((await claim(ada, who)).statusCode).toBe(200);
      const response = await openRoom(callId, ada);
      expect(response.statusCode).toBe(200);
      const agentAccess = envelope(roomAccessSchema).parse(response.json()).data;
      expect(agentAccess.pin).toBe(guestAccess.pin);
      expect(agentAccess.token).toMatch(/^agent\./);
      expect(agentAccess.token).not.toBe(guestAccess.token);
    });

    it('does not record when the company does not, and makes H.264 rooms for webviews', async () => {
      await setCompanySettings(t.app, SEEDED_COMPANY.aroundTheClock, { recordCalls: false });
      const caller = await loginGuest(t.app, SEEDED_COMPANY.aroundTheClock);
      const callId = await startCall(caller, 10, SEEDED_COMPANY.aroundTheClock);
      const response = await openRoom(callId, caller.token, '?webview=true');
      expect(response.statusCode).toBe(200);
      expect(response.json().data.recorded).toBe(false);
      expect(await rooms.exists(callId)).toBe(true);
    });

    it("makes a webview call's room for H.264 whoever opens it first: the agent's claim too", async () => {
      const who = await loginGuest(t.app, SEEDED_COMPANY.demo);
      const webviewCall = newCallId(who);
      const added = await send('POST', 'call-report/add', who.token, {
        call_id: webviewCall,
        company: 5,
        source: 'site',
        category_id: 1,
        webview: true,
      });
      expect(added.statusCode).toBe(201);
      // Ada answers before the guest's page has asked for the room.
      expect((await claim(ada, who)).statusCode).toBe(200);
      const other = await waitingGuest();
      expect((await claim(ada, other.who)).statusCode).toBe(200);
      expect(await videoCodecOf(webviewCall)).toBe('h264');
      expect(await videoCodecOf(other.callId)).not.toBe('h264');
      // After a Janus restart lost the rooms, the agent asking first makes it H.264 again.
      const { room_secret: roomSecret } = await t.app.db
        .selectFrom('call_reports')
        .select('room_secret')
        .where('call_id', '=', webviewCall)
        .executeTakeFirstOrThrow();
      await rooms.destroy({ room: webviewCall, secret: roomSecret ?? '' });
      expect((await openRoom(webviewCall, ada)).statusCode).toBe(200);
      expect(await videoCodecOf(webviewCall)).toBe('h264');
    });

    it('refuses a malformed call id or webview flag (400)', async () => {
      expectError(await openRoom('not-a-call', guest.token), 400, 'invalid_request');
      const callId = await startCall(guest);
      const response = await openRoom(callId, guest.token, '?webview=yes');
      expectError(response, 400, 'invalid_request');
      expect(response.json().error.fields).toHaveProperty('webview');
    });

    it('answers 401 without a login and 404 for an unknown call', async () => {
      const callId = await startCall(guest);
      expectError(await openRoom(callId, ''), 401, 'unauthenticated');
      expectError(await openRoom(newCallId(guest), guest.token), 404, 'call_report_not_found');
    });

    it('refuses another guest, another company and an agent who has not claimed the call (403)', async () => {
      const callId = await startCall(guest);
      for (const token of [otherGuest.token, cy, bo, ann]) {
        expectError(await openRoom(callId, token), 403, 'not_your_call');
      }
      expect(await rooms.exists(callId)).toBe(false);
    });

    it('refuses a call that has ended or was never let through (409)', async () => {
      const callId = await startCall(guest);
      await end(callId, guest.token, 'abandoned');
      expectError(await openRoom(callId, guest.token), 409, 'call_ended');

      const blocked = await loginGuest(
        t.app,
        SEEDED_COMPANY.blockList,
        formatBrowserUsername(BLOCKED_FINGERPRINT, randomBytes(6).toString('hex')),
      );
      const refused = newCallId(blocked);
      await send('POST', 'call-report/add', blocked.token, {
        call_id: refused,
        company: SEEDED_COMPANY.blockList,
        source: 'site',
      });
      expectError(await openRoom(refused, blocked.token), 409, 'call_refused');
    });

    it('answers 502 when Janus cannot be reached, without leaking why', async () => {
      const offline = await buildTestApp({
        JANUS_HTTP_URL: 'http://127.0.0.1:9/janus',
        JANUS_TOKEN_SECRET: janusTokenSecret,
        JANUS_ADMIN_KEY: janusAdminKey,
      });
      try {
        const who = await loginGuest(offline.app, SEEDED_COMPANY.demo);
        const callId = newCallId(who);
        await callApi(
          offline.app,
          'POST',
          'call-report/add',
          { call_id: callId, company: 5, source: 'site' },
          who.token,
        );
        const response = await callApi(
          offline.app,
          'POST',
          `calls/${callId}/room`,
          undefined,
          who.token,
        );
        expectError(response, 502, 'media_unavailable');
        expect(response.body).not.toContain('127.0.0.1');
      } finally {
        await offline.close();
      }
    });
  });

  describe('POST /api/calls/claim', () => {
    it("takes the guest's open call and opens its room: the call is answered", async () => {
      const { who, callId } = await waitingGuest(2);
      const response = await claim(ada, who, 2);
      expect(response.statusCode).toBe(200);
      const claimed = envelope(claimedCallSchema).parse(response.json()).data;
      expect(claimed).toMatchObject({
        callId,
        guestUsername: who.username,
        guestJabberUsername: expect.stringMatching(/^g5-/),
        categoryId: 2,
        callType: null,
        room: { room: callId, pin: expect.stringMatching(/^[0-9a-f]{32}$/) },
      });
      expect(await rooms.exists(callId)).toBe(true);
      expect(await state(callId, who.token)).toMatchObject({
        status: 'answered',
        agentJabberUsername: adaNick,
      });
    });

    it("shows the answered call in its category's wait estimate at once", async () => {
      const waitOf = async () => {
        const response = await send('GET', `company/${SEEDED_COMPANY.demo}`);
        const { categories } = envelope(companyDetailsSchema).parse(response.json()).data;
        return categories.find((c) => c.id === 3)?.averageWaitMs;
      };
      const { who } = await waitingGuest(3);
      expect(await waitOf()).toBe(DEFAULT_AVERAGE_WAIT_MS);
      expect((await claim(ada, who, 3)).statusCode).toBe(200);
      expect(await waitOf()).toBeLessThan(DEFAULT_AVERAGE_WAIT_MS);
    });

    it('lets exactly one of two agents claiming at once win; the other learns who did (409)', async () => {
      const { who, callId } = await waitingGuest();
      const answers = await Promise.all([claim(ada, who), claim(bo, who)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const lost = answers.find((r) => r.statusCode === 409);
      expect(lost?.json().error.code).toBe('already_claimed');
      const winner = (await state(callId)).agentJabberUsername;
      expect([adaNick, boNick]).toContain(winner);
      expect(lost?.json().error.message).toMatch(winner === adaNick ? /Ada Agent/ : /Bo Agent/);
      expect(lost?.json().error.fields.guestUsername).toContain(winner);
    });

    it('answers the winner again when it claims twice, and lets an admin claim', async () => {
      const { who, callId } = await answeredCall();
      const again = await claim(ada, who);
      expect(again.statusCode).toBe(200);
      expect(again.json().data.callId).toBe(callId);

      const other = await waitingGuest();
      expect((await claim(ann, other.who)).statusCode).toBe(200);
    });

    it("takes the guest's latest call, not an older one it left open", async () => {
      const who = await loginGuest(t.app, SEEDED_COMPANY.demo);
      await startCall(who);
      const latest = await startCall(who);
      expect((await claim(ada, who)).json().data.callId).toBe(latest);
    });

    it('answers 404 no_open_call for a guest who is not waiting', async () => {
      const idle = await loginGuest(t.app, SEEDED_COMPANY.demo);
      expectError(await claim(ada, idle), 404, 'no_open_call');
      const { who, callId } = await waitingGuest();
      expectError(await claim(ada, who, 2), 404, 'no_open_call');
      await end(callId, who.token, 'abandoned');
      expectError(await claim(ada, who), 404, 'no_open_call');
      expectError(
        await claim(ada, { username: `g${'c'.repeat(25)}`, token: '' }),
        404,
        'no_open_call',
      );
    });

    it('refuses a malformed body or a category of another company (400)', async () => {
      expectError(
        await send('POST', 'calls/claim', ada, { guestUsername: 'bad', categoryId: 1 }),
        400,
        'invalid_request',
      );
      expectError(
        await send('POST', 'calls/claim', ada, { guestUsername: guest.username }),
        400,
        'invalid_request',
      );
      const { who } = await waitingGuest();
      const response = await claim(cy, who);
      expectError(response, 400, 'unknown_category');
      expect(response.json().error.fields).toEqual({
        categoryId: 'is not a category of the company',
      });
    });

    it('refuses guests (403) and callers without a login (401)', async () => {
      const { who } = await waitingGuest();
      expectError(await claim(who.token, who), 403, 'staff_only');
      expectError(await claim('', who), 401, 'unauthenticated');
      expect((await claim(ada, who)).statusCode).toBe(200);
    });
  });

  describe('GET /api/calls/:callId', () => {
    it('tells the guest and any staff of the company how the call stands', async () => {
      const { who, callId } = await waitingGuest();
      expect(await state(callId, who.token)).toEqual({
        callId,
        status: 'waiting',
        // The seeded company's calls go through the media server.
        callMethod: 'mediaServer',
        queue: { position: expect.any(Number), waiting: expect.any(Number) },
        agentJabberUsername: null,
        agentName: null,
        transfer: null,
      });
      await claim(ada, who);
      expect(await state(callId, bo)).toMatchObject({
        status: 'answered',
        queue: null,
        agentJabberUsername: adaNick,
      });
      // The guest learns the first name of the agent who took its call ("Ada Agent"), no more.
      expect((await state(callId, who.token)).agentName).toBe('Ada');
    });

    it('tells a waiting guest its place in its category, which moves up as calls ahead go', async () => {
      const first = await waitingGuest(2);
      const second = await waitingGuest(2);
      const ahead = (await state(first.callId, first.who.token)).queue;
      if (!ahead) throw new Error('the first call does not wait');
      expect(await state(second.callId, second.who.token)).toMatchObject({
        queue: { position: ahead.position + 1, waiting: ahead.waiting },
      });
      // A call of another category is no call ahead.
      await waitingGuest(3);
      expect((await state(second.callId, second.who.token)).queue?.position).toBe(
        ahead.position + 1,
      );
      expect((await end(first.callId, first.who.token, 'abandoned')).statusCode).toBe(200);
      expect(await state(second.callId, second.who.token)).toMatchObject({
        queue: { position: ahead.position, waiting: ahead.waiting - 1 },
      });
    });

    it('counts no call whose guest stopped asking for its place (its page closed)', async () => {
      const gone = await waitingGuest(2);
      const staying = await waitingGuest(2);
      const before = (await state(staying.callId, staying.who.token)).queue;
      if (!before) throw new Error('the call does not wait');
      // The guest of `gone` last asked a minute ago, as if its page had closed then.
      const aMinuteAgo = new Date(Date.now() - 60_000);
      // `created_at` is the database's own (no statement of the API may set it).
      await sql`update call_reports set created_at = ${aMinuteAgo}, guest_seen_at = ${aMinuteAgo}
        where call_id = ${gone.callId}`.execute(t.app.db);
      expect(await state(staying.callId, staying.who.token)).toMatchObject({
        queue: { position: before.position - 1, waiting: before.waiting - 1 },
      });
      // Its own place it still learns, and asking counts it again.
      expect((await state(gone.callId, gone.who.token)).queue).not.toBeNull();
      expect((await state(staying.callId, staying.who.token)).queue).toEqual(before);
    });

    it('refuses another guest or company (403), an unknown call (404), a bad id (400)', async () => {
      const callId = await startCall(guest);
      expectError(await send('GET', `calls/${callId}`, otherGuest.token), 403, 'not_your_call');
      expectError(await send('GET', `calls/${callId}`, cy), 403, 'not_your_call');
      expectError(
        await send('GET', `calls/${newCallId(guest)}`, ada),
        404,
        'call_report_not_found',
      );
      expectError(await send('GET', 'calls/x--', ada), 400, 'invalid_request');
      expectError(await send('GET', `calls/${callId}`), 401, 'unauthenticated');
    });
  });

  describe('POST /api/calls/:callId/end', () => {
    const endedAt = async (callId: string) =>
      (
        await t.app.db
          .selectFrom('call_reports')
          .select(['ended_at', 'end_reason'])
          .where('call_id', '=', callId)
          .executeTakeFirstOrThrow()
      ).ended_at;

    it('records a guest leaving before any agent took the call as abandoned, once', async () => {
      const { who, callId } = await waitingGuest();
      const response = await end(callId, who.token, 'abandoned');
      expect(response.statusCode).toBe(200);
      expect(response.json().data.status).toBe('abandoned');
      const first = await endedAt(callId);
      expect(first).toBeInstanceOf(Date);
      const again = await end(callId, who.token, 'abandoned');
      expect(again.statusCode).toBe(200);
      expect(again.json().data.status).toBe('abandoned');
      expect(await endedAt(callId)).toEqual(first);
    });

    it('records an answered call as completed, whoever ends it, and destroys its room', async () => {
      const { who, callId } = await answeredCall();
      expect(await rooms.exists(callId)).toBe(true);
      const response = await end(callId, ada);
      expect(response.statusCode).toBe(200);
      expect(response.json().data.status).toBe('ended');
      expect(await rooms.exists(callId)).toBe(false);
      expect((await end(callId, who.token)).json().data.status).toBe('ended');
    });

    it("keeps the API's record when the caller saw it otherwise", async () => {
      const { who, callId } = await waitingGuest();
      expect((await end(callId, who.token, 'completed')).json().data.status).toBe('abandoned');
      const answered = await answeredCall();
      expect((await end(answered.callId, answered.who.token, 'abandoned')).json().data.status).toBe(
        'ended',
      );
    });

    it('refuses another guest, company, or an agent who did not take the call (403)', async () => {
      const { callId } = await answeredCall();
      for (const token of [otherGuest.token, cy, bo, ann]) {
        expectError(await end(callId, token), 403, 'not_your_call');
      }
      expect(await endedAt(callId)).toBeNull();
    });

    it('refuses a bad reason (400), an unknown call (404) and no login (401)', async () => {
      const callId = await startCall(guest);
      expectError(await end(callId, guest.token, 'bored'), 400, 'invalid_request');
      expectError(await end(newCallId(guest), guest.token), 404, 'call_report_not_found');
      expectError(await end(callId, ''), 401, 'unauthenticated');
    });
  });

  describe('POST /api/calls/:callId/transfer', () => {
    const transfer = (callId: string, token: string, body: object) =>
      send('POST', `calls/${callId}/transfer`, token, body);

    it('records the target the guest then moves to with hold-call, unclaimed in its category', async () => {
      const { who, callId } = await answeredCall();
      const toBo = await transfer(callId, ada, { toAgentJabberUsername: boNick });
      expect(toBo.statusCode).toBe(200);
      expect(toBo.json().data.transfer).toEqual({
        toAgentJabberUsername: boNick,
        toCategoryId: null,
      });
      // A new target replaces the old one.
      await transfer(callId, ada, { toCategoryId: 3 });
      const seen = await state(callId, who.token);
      expect(seen).toMatchObject({
        status: 'answered',
        transfer: { toAgentJabberUsername: null, toCategoryId: 3 },
      });

      const next = newCallId(who);
      const moved = await send('POST', 'call-report/hold-call', who.token, {
        origin_call_id: callId,
        current_call_id: callId,
        new_call_id: next,
      });
      expect(moved.statusCode).toBe(201);
      expect((await state(callId, who.token)).status).toBe('ended');
      expect(await state(next, who.token)).toEqual({
        callId: next,
        status: 'waiting',
        // The seeded company's calls go through the media server.
        callMethod: 'mediaServer',
        queue: { position: expect.any(Number), waiting: expect.any(Number) },
        agentJabberUsername: null,
        agentName: null,
        transfer: null,
      });
      const taken = await claim(bo, who, 3);
      expect(taken.statusCode).toBe(200);
      expect(taken.json().data).toMatchObject({ callId: next, categoryId: 3 });
    });

    it('refuses a target that is not another agent or a category of the company (400)', async () => {
      const { callId } = await answeredCall();
      const cyNick = `staff-${
        (
          await t.app.db
            .selectFrom('staff')
            .select('id')
            .where('email', '=', 'cy@frontdesk.demo')
            .executeTakeFirstOrThrow()
        ).id
      }`;
      for (const toAgentJabberUsername of [cyNick, adaNick, 'staff-99999', 'staff-99999999999']) {
        const response = await transfer(callId, ada, { toAgentJabberUsername });
        expectError(response, 400, 'unknown_agent');
      }
      expectError(await transfer(callId, ada, { toCategoryId: 10 }), 400, 'unknown_category');
      expectError(
        await transfer(callId, ada, { toCategoryId: 2, toAgentJabberUsername: boNick }),
        400,
        'invalid_request',
      );
      expectError(await transfer(callId, ada, {}), 400, 'invalid_request');
      expect((await state(callId)).transfer).toBeNull();
    });

    it('refuses the guest, other agents and other companies (403)', async () => {
      const { who, callId } = await answeredCall();
      expectError(await transfer(callId, who.token, { toCategoryId: 2 }), 403, 'staff_only');
      for (const token of [bo, ann, cy]) {
        expectError(await transfer(callId, token, { toCategoryId: 2 }), 403, 'not_your_call');
      }
    });

    it('refuses a call that has ended (409) or does not exist (404)', async () => {
      const { callId } = await answeredCall();
      await end(callId, ada);
      expectError(await transfer(callId, ada, { toCategoryId: 2 }), 409, 'call_ended');
      expectError(
        await transfer(newCallId(guest), ada, { toCategoryId: 2 }),
        404,
        'call_report_not_found',
      );
    });
  });

  describe('PUT /api/calls/:callId/notes', () => {
    const saveNotes = (callId: string, token: string, notes: string) =>
      send('PUT', `calls/${callId}/notes`, token, { notes });
    const notesOf = async (callId: string) =>
      (
        await t.app.db
          .selectFrom('call_reports')
          .select('notes')
          .where('call_id', '=', callId)
          .executeTakeFirstOrThrow()
      ).notes;

    it("keeps the agent's notes, also after the call", async () => {
      const { callId } = await answeredCall();
      const response = await saveNotes(callId, ada, 'Wants a refund.');
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      await end(callId, ada);
      expect((await saveNotes(callId, ada, 'Refund sent.')).statusCode).toBe(204);
      expect(await notesOf(callId)).toBe('Refund sent.');
    });

    it('refuses the guest and anyone but the agent who took the call (403)', async () => {
      const { who, callId } = await answeredCall();
      expectError(await saveNotes(callId, who.token, 'x'), 403, 'staff_only');
      for (const token of [bo, ann, cy]) {
        expectError(await saveNotes(callId, token, 'x'), 403, 'not_your_call');
      }
      expect(await notesOf(callId)).toBeNull();
    });

    it('refuses notes that are too long (400) and unknown calls (404)', async () => {
      const { callId } = await answeredCall();
      expectError(await saveNotes(callId, ada, 'x'.repeat(10_001)), 400, 'invalid_request');
      expectError(await saveNotes(newCallId(guest), ada, 'x'), 404, 'call_report_not_found');
    });
  });

  describe('GET /api/calls', () => {
    const list = async (query: string, token = ada) => {
      const response = await send('GET', `calls${query}`, token);
      expect(response.statusCode).toBe(200);
      return envelope(callSummarySchema.array()).parse(response.json()).data;
    };

    it("lists waiting calls with the guest's welcome answers and earlier calls", async () => {
      const who = await loginGuest(t.app, SEEDED_COMPANY.demo);
      const answers = { name: 'Grace', email: 'grace@example.org', topic: 'account' };
      const submitted = await send('POST', 'form-submission', who.token, {
        company: 5,
        guestUsername: who.username,
        serviceType: 'Talk',
        form: 1,
        answers,
      });
      expect(submitted.statusCode).toBe(201);
      const earlier = await startCall(who, 2);
      await end(earlier, who.token, 'abandoned');
      const callId = await startCall(who, 2);

      const waiting = await list('?status=waiting&categoryId=2');
      const mine = waiting.find((c) => c.callId === callId);
      expect(mine).toMatchObject({
        guestUsername: who.username,
        categoryId: 2,
        agentJabberUsername: null,
        answeredAt: null,
        welcomeAnswers: answers,
        previousCalls: 1,
      });
      expect(waiting.every((c) => c.categoryId === 2 && c.agentJabberUsername === null)).toBe(true);
      expect(waiting.some((c) => c.callId === earlier)).toBe(false);
      // Waiting is the default; another category's filter leaves the call out.
      expect((await list('')).some((c) => c.callId === callId)).toBe(true);
      expect((await list('?categoryId=3')).some((c) => c.callId === callId)).toBe(false);

      await claim(ada, who, 2);
      expect((await list('?status=waiting')).some((c) => c.callId === callId)).toBe(false);
      const answered = (await list('?status=answered', bo)).find((c) => c.callId === callId);
      expect(answered).toMatchObject({ agentJabberUsername: adaNick, welcomeAnswers: answers });
      expect(answered?.answeredAt).not.toBeNull();
    });

    it("shows another company's agent none of the company's calls", async () => {
      const { callId } = await waitingGuest();
      expect((await list('?status=waiting', cy)).some((c) => c.callId === callId)).toBe(false);
      expect((await list('?status=waiting&categoryId=1', cy)).length).toBe(0);
    });

    it('refuses guests (403), a bad filter (400) and no login (401)', async () => {
      expectError(await send('GET', 'calls', guest.token), 403, 'staff_only');
      expectError(await send('GET', 'calls?status=ended', ada), 400, 'invalid_request');
      expectError(await send('GET', 'calls?categoryId=x', ada), 400, 'invalid_request');
      expectError(await send('GET', 'calls'), 401, 'unauthenticated');
    });
  });
});
