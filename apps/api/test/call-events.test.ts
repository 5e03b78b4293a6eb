import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callSummarySchema,
  envelope,
  type CallQualityBody,
  type CallSummary,
} from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../src/db/seed.ts';
import {
  buildTestApp,
  callApi,
  guestWithCall,
  loginStaff,
  markAnswered,
  newCallId,
  staffIdOf,
  type TestApp,
} from './helper.ts';
import { goodQuality } from './call-quality-sample.ts';

/** Turns long enough that a few listings fall in one, short enough to wait through one. */
const OFFER_MS = 1500;
const company = SEEDED_COMPANY.demo;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('what reports need of a call (ended_by, call_events, call_quality)', () => {
  let t: TestApp;
  /** Ada and Bo are agents of the demo company. */
  let ada: string;
  let bo: string;
  let adaId: number;
  let boId: number;

  beforeAll(async () => {
    t = await buildTestApp({ ROUND_ROBIN_OFFER_MS: String(OFFER_MS) });
    [ada, bo] = await Promise.all([
      loginStaff(t.app, 'ada@frontdesk.demo'),
      loginStaff(t.app, 'bo@frontdesk.demo'),
    ]);
    [adaId, boId] = await Promise.all([
      staffIdOf(t.app, 'ada@frontdesk.demo'),
      staffIdOf(t.app, 'bo@frontdesk.demo'),
    ]);
  });
  afterAll(() => t?.close());

  /** A new guest of the demo company waiting in category 1. */
  const waitingCall = () => guestWithCall(t.app, company, 1);
  /** A new guest's call that Ada has taken. */
  const answeredCall = async () => {
    const call = await waitingCall();
    await markAnswered(t.app, call.callId);
    return call;
  };
  const end = (callId: string, token: string) =>
    callApi(t.app, 'POST', `calls/${callId}/end`, { reason: 'completed' }, token);
  const reportOf = (callId: string) =>
    t.app.db
      .selectFrom('call_reports')
      .select(['id', 'ended_by', 'end_reason', 'ended_at'])
      .where('call_id', '=', callId)
      .executeTakeFirstOrThrow();
  const eventsOf = async (callId: string) =>
    t.app.db
      .selectFrom('call_events as e')
      .innerJoin('call_reports as r', 'r.id', 'e.call_report_id')
      .select(['e.kind', 'e.staff_id', 'e.at', 'e.until', 'e.details', 'e.company_id'])
      .where('r.call_id', '=', callId)
      .orderBy('e.at')
      .orderBy('e.id')
      .execute();

  describe('call_reports.ended_by', () => {
    it('is the guest when the guest ends its call, and a later end by the agent keeps it', async () => {
      const { callId, token } = await answeredCall();
      expect((await end(callId, token)).statusCode).toBe(200);
      expect(await reportOf(callId)).toMatchObject({ ended_by: 'guest', end_reason: 'completed' });
      expect((await end(callId, ada)).statusCode).toBe(200);
      expect((await reportOf(callId)).ended_by).toBe('guest');
    });

    it('is the guest when it leaves before anyone answers', async () => {
      const { callId, token } = await waitingCall();
      expect((await end(callId, token)).statusCode).toBe(200);
      expect(await reportOf(callId)).toMatchObject({ ended_by: 'guest', end_reason: 'abandoned' });
    });

    it('is the agent when the agent who took the call ends it', async () => {
      const { callId } = await answeredCall();
      expect((await end(callId, ada)).statusCode).toBe(200);
      expect(await reportOf(callId)).toMatchObject({ ended_by: 'agent', end_reason: 'completed' });
    });

    it("is the server when hold-call moves the conversation on, and the new leg's end is its own", async () => {
      const guest = await answeredCall();
      const next = newCallId(guest);
      const moved = await callApi(
        t.app,
        'POST',
        'call-report/hold-call',
        { origin_call_id: guest.callId, current_call_id: guest.callId, new_call_id: next },
        guest.token,
      );
      expect(moved.statusCode).toBe(201);
      expect(await reportOf(guest.callId)).toMatchObject({
        ended_by: 'server',
        end_reason: 'completed',
      });
      expect((await reportOf(next)).ended_by).toBeNull();
      // The guest leaves the old leg's rooms afterwards: its end changes nothing of the record.
      expect((await end(guest.callId, guest.token)).statusCode).toBe(200);
      expect((await reportOf(guest.callId)).ended_by).toBe('server');
    });

    it("is the server when the guest's newer call ends its older one", async () => {
      const guest = await waitingCall();
      const newer = newCallId(guest);
      const added = await callApi(
        t.app,
        'POST',
        'call-report/add',
        { call_id: newer, company, source: 'site', category_id: 1 },
        guest.token,
      );
      expect(added.statusCode).toBe(201);
      expect(await reportOf(guest.callId)).toMatchObject({
        ended_by: 'server',
        end_reason: 'abandoned',
      });
      expect((await reportOf(newer)).ended_by).toBeNull();
    });
  });

  describe('transfer_requested', () => {
    it('records each target the agent names, by whom, and nothing for a refused transfer', async () => {
      const { callId } = await answeredCall();
      const transfer = (body: object) =>
        callApi(t.app, 'POST', `calls/${callId}/transfer`, body, ada);
      expect((await transfer({ toCategoryId: 2 })).statusCode).toBe(200);
      expect((await transfer({ toAgentJabberUsername: `staff-${boId}` })).statusCode).toBe(200);
      expect((await transfer({ toCategoryId: 10 })).statusCode).toBe(400);
      const events = await eventsOf(callId);
      expect(events).toEqual([
        expect.objectContaining({
          kind: 'transfer_requested',
          staff_id: adaId,
          details: { toCategoryId: 2 },
          company_id: company,
          until: null,
        }),
        expect.objectContaining({
          kind: 'transfer_requested',
          staff_id: adaId,
          details: { toStaffId: boId },
        }),
      ]);
    });
  });

  describe('POST /api/calls/:callId/hold', () => {
    const hold = (callId: string, onHold: boolean, token = ada) =>
      callApi(t.app, 'POST', `calls/${callId}/hold`, { onHold }, token);

    it('records each hold and resume of the agent once, however often it is sent', async () => {
      const { callId } = await answeredCall();
      // A resume before any hold is no moment of the call.
      expect((await hold(callId, false)).statusCode).toBe(204);
      expect(await eventsOf(callId)).toEqual([]);
      for (const onHold of [true, true, false, false, true, false]) {
        expect((await hold(callId, onHold)).statusCode).toBe(204);
      }
      const events = await eventsOf(callId);
      expect(events.map((event) => [event.kind, event.staff_id])).toEqual([
        ['held', adaId],
        ['resumed', adaId],
        ['held', adaId],
        ['resumed', adaId],
      ]);
      expect(events.every((event) => event.details === null && event.until === null)).toBe(true);
    });

    it('answers 409 call_ended once the call is over, recording nothing', async () => {
      const { callId } = await answeredCall();
      expect((await end(callId, ada)).statusCode).toBe(200);
      const refused = await hold(callId, true);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('call_ended');
      expect(await eventsOf(callId)).toEqual([]);
    });
  });

  describe('offered (GET /api/calls?status=waiting)', () => {
    const listWaiting = async (token: string) => {
      const response = await callApi(t.app, 'GET', 'calls?status=waiting', undefined, token);
      expect(response.statusCode).toBe(200);
      return envelope(callSummarySchema.array()).parse(response.json()).data;
    };
    const setAvailable = (token: string) =>
      callApi(t.app, 'PUT', 'staff/me/availability', { status: 'available' }, token);

    it('records each turn the consoles were shown once, with whom and from when until when', async () => {
      expect((await setAvailable(ada)).statusCode).toBe(204);
      expect((await setAvailable(bo)).statusCode).toBe(204);
      const calls = [await waitingCall(), await waitingCall()];
      /** What the consoles were told of each call, listing after listing. */
      const shown = new Map(calls.map(({ callId }) => [callId, [] as CallSummary['offer'][]]));
      const look = async () => {
        const lists = await Promise.all([listWaiting(ada), listWaiting(bo), listWaiting(ada)]);
        for (const call of lists.flat()) shown.get(call.callId)?.push(call.offer);
      };
      await look();
      await look();
      const firstUntil = Date.parse(shown.get(calls[0]?.callId ?? '')?.[0]?.until ?? '');
      await sleep(firstUntil - Date.now() + 100);
      await look();

      for (const { callId } of calls) {
        const offers = shown.get(callId) ?? [];
        // Nine listings, each offering the call to someone, over two turns at least.
        expect(offers).toHaveLength(9);
        expect(offers.every((offer) => offer !== null)).toBe(true);
        const turns = [
          ...new Map(
            offers.map((offer) => [`${offer?.agentJabberUsername} ${offer?.until}`, offer]),
          ).values(),
        ];
        expect(turns.length).toBeGreaterThanOrEqual(callId === calls[0]?.callId ? 2 : 1);
        const events = await eventsOf(callId);
        expect(
          events.map((event) => ({
            kind: event.kind,
            agent: `staff-${event.staff_id}`,
            at: event.at.getTime(),
            until: event.until?.toISOString(),
          })),
        ).toEqual(
          turns.map((offer) => ({
            kind: 'offered',
            agent: offer?.agentJabberUsername,
            at: Date.parse(offer?.until ?? '') - OFFER_MS,
            until: offer?.until,
          })),
        );
        // The first turn starts when the call began.
        const { created_at } = await t.app.db
          .selectFrom('call_reports')
          .select('created_at')
          .where('call_id', '=', callId)
          .executeTakeFirstOrThrow();
        expect(events[0]?.at.getTime()).toBe(created_at.getTime());
      }
    });
  });

  describe('PUT /api/calls/:callId/quality', () => {
    const report = (callId: string, token: string, body: object = goodQuality) =>
      callApi(t.app, 'PUT', `calls/${callId}/quality`, body, token);
    const qualityOf = (callId: string) =>
      t.app.db
        .selectFrom('call_quality as q')
        .innerJoin('call_reports as r', 'r.id', 'q.call_report_id')
        .selectAll('q')
        .where('r.call_id', '=', callId)
        .orderBy('q.role')
        .execute();

    it('keeps one report per side, the later replacing the earlier', async () => {
      const { callId, token } = await answeredCall();
      expect((await report(callId, token)).statusCode).toBe(204);
      const relayed: CallQualityBody = {
        ...goodQuality,
        setupMs: null,
        localCandidateType: 'relay',
        relayProtocol: 'tcp',
        roundTripMs: null,
        reconnects: 2,
        iceFailed: true,
      };
      expect((await report(callId, ada, relayed)).statusCode).toBe(204);
      expect((await report(callId, token, { ...goodQuality, packetsLost: 99 })).statusCode).toBe(
        204,
      );
      const rows = await qualityOf(callId);
      expect(rows).toEqual([
        expect.objectContaining({
          role: 'agent',
          company_id: company,
          setup_ms: null,
          local_candidate_type: 'relay',
          remote_candidate_type: 'srflx',
          relay_protocol: 'tcp',
          packets_received: 50_000,
          packets_lost: 12,
          jitter_ms: 4.5,
          round_trip_ms: null,
          send_kbps: 900,
          receive_kbps: 1100,
          reconnects: 2,
          ice_failed: true,
        }),
        expect.objectContaining({
          role: 'guest',
          setup_ms: 1200,
          local_candidate_type: 'host',
          packets_lost: 99,
          round_trip_ms: 38,
          ice_failed: false,
        }),
      ]);
    });

    it('is taken as the call ends, and from a guest whose call no one answered', async () => {
      const answered = await answeredCall();
      expect((await end(answered.callId, ada)).statusCode).toBe(200);
      expect((await report(answered.callId, ada)).statusCode).toBe(204);
      expect((await report(answered.callId, answered.token)).statusCode).toBe(204);
      expect((await qualityOf(answered.callId)).map((row) => row.role)).toEqual(['agent', 'guest']);

      const unanswered = await waitingCall();
      const failed = { ...goodQuality, setupMs: null, iceFailed: true };
      expect((await report(unanswered.callId, unanswered.token, failed)).statusCode).toBe(204);
      expect(await qualityOf(unanswered.callId)).toEqual([
        expect.objectContaining({ role: 'guest', ice_failed: true }),
      ]);
    });
  });
});
