import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBrowserUsername, type CallQualityBody } from '@frontdesk/protocol';
import { BLOCKED_FINGERPRINT, SEEDED_COMPANY } from '../../src/db/seed.ts';
import {
  addCall,
  answeredCall,
  buildTestApp,
  callApi,
  guestWithCall,
  loginGuest,
  loginStaff,
  newCallId,
  type TestApp,
} from '../helper.ts';
import { goodQuality } from '../call-quality-sample.ts';

/**
 * Attack: writing into another's call what reports will show of it — putting a call one did not
 * take on hold, or reporting its media as one of its sides — from another guest, a colleague
 * who did not take it, another company, or with bodies no app sends. Through the real API and
 * PostgreSQL: each refusal says why, and nothing is stored.
 */
describe("attack: holds and quality reports on someone else's call", () => {
  let t: TestApp;
  /** Ada and Bo are agents of the demo company, Ann its admin; Cy works for company 12. */
  let ada: string;
  let bo: string;
  let ann: string;
  let cy: string;

  beforeAll(async () => {
    t = await buildTestApp();
    [ada, bo, ann, cy] = await Promise.all([
      loginStaff(t.app, 'ada@frontdesk.demo'),
      loginStaff(t.app, 'bo@frontdesk.demo'),
      loginStaff(t.app, 'admin@frontdesk.demo'),
      loginStaff(t.app, 'cy@frontdesk.demo'),
    ]);
  });
  afterAll(() => t?.close());

  /** A guest of the demo company whose call Ada has taken. */
  const takenCall = () => answeredCall(t.app, SEEDED_COMPANY.demo, 1);
  const refusal = (response: { statusCode: number; json: () => unknown }) => {
    const { error } = response.json() as { error: { code: string; fields?: object } };
    return { status: response.statusCode, code: error.code, fields: error.fields };
  };
  const eventCount = async () =>
    Number(
      (await sql<{ n: string }>`select count(*) as n from call_events`.execute(t.app.db)).rows[0]
        ?.n,
    );
  const qualityCount = async () =>
    Number(
      (await sql<{ n: string }>`select count(*) as n from call_quality`.execute(t.app.db)).rows[0]
        ?.n,
    );

  describe('POST /api/calls/:callId/hold', () => {
    const hold = (callId: string, token: string | undefined, body: object = { onHold: true }) =>
      callApi(t.app, 'POST', `calls/${callId}/hold`, body, token);

    it('is refused to everyone but the agent who took the call', async () => {
      const { callId, token: guest } = await takenCall();
      const before = await eventCount();
      expect(refusal(await hold(callId, undefined))).toMatchObject({
        status: 401,
        code: 'unauthenticated',
      });
      // The call's own guest is no agent.
      expect(refusal(await hold(callId, guest))).toMatchObject({ status: 403, code: 'staff_only' });
      // A colleague, the company's admin, another company's agent.
      for (const token of [bo, ann, cy]) {
        expect(refusal(await hold(callId, token))).toMatchObject({
          status: 403,
          code: 'not_your_call',
        });
      }
      expect(await eventCount()).toBe(before);
    });

    it('is refused for a call no one took, an unknown call, and a refused one', async () => {
      const waiting = await guestWithCall(t.app, SEEDED_COMPANY.demo, 1);
      const before = await eventCount();
      expect(refusal(await hold(waiting.callId, ada))).toMatchObject({
        status: 403,
        code: 'not_your_call',
      });
      expect(refusal(await hold(newCallId(waiting), ada))).toMatchObject({
        status: 404,
        code: 'call_report_not_found',
      });
      expect(await eventCount()).toBe(before);
    });

    it('refuses bodies that are not one onHold flag, naming the field (400)', async () => {
      const { callId } = await takenCall();
      const before = await eventCount();
      for (const [body, field] of [
        [{ onHold: 'yes' }, 'onHold'],
        [{}, 'onHold'],
        [{ onHold: true, staffId: 1 }, 'staffId'],
      ] as const) {
        const refused = refusal(await hold(callId, ada, body));
        expect(refused).toMatchObject({ status: 400 });
        expect(refused.fields).toHaveProperty(field);
      }
      expect(await eventCount()).toBe(before);
    });
  });

  describe('PUT /api/calls/:callId/quality', () => {
    const report = (callId: string, token: string | undefined, body: object = goodQuality) =>
      callApi(t.app, 'PUT', `calls/${callId}/quality`, body, token);

    it('is refused to another guest, a colleague who did not take the call, the admin and another company', async () => {
      const { callId } = await takenCall();
      const otherGuest = await loginGuest(t.app, SEEDED_COMPANY.demo);
      const foreignGuest = await loginGuest(t.app, SEEDED_COMPANY.aroundTheClock);
      expect(refusal(await report(callId, undefined))).toMatchObject({ status: 401 });
      for (const token of [otherGuest.token, foreignGuest.token, bo, ann, cy]) {
        expect(refusal(await report(callId, token))).toMatchObject({
          status: 403,
          code: 'not_your_call',
        });
      }
      expect(refusal(await report(newCallId(otherGuest), otherGuest.token))).toMatchObject({
        status: 404,
        code: 'call_report_not_found',
      });
      expect(await qualityCount()).toBe(0);
    });

    it('is refused for a refused call, and once the call ended long ago', async () => {
      const blocked = await loginGuest(
        t.app,
        SEEDED_COMPANY.blockList,
        formatBrowserUsername(BLOCKED_FINGERPRINT, randomBytes(6).toString('hex')),
      );
      const { callId: refusedCall, response: added } = await addCall(
        t.app,
        blocked,
        SEEDED_COMPANY.blockList,
      );
      expect(added.json().data.status).toBe('blocked');
      expect(refusal(await report(refusedCall, blocked.token))).toMatchObject({
        status: 409,
        code: 'call_refused',
      });

      const { callId, token } = await takenCall();
      expect(
        (await callApi(t.app, 'POST', `calls/${callId}/end`, { reason: 'completed' }, ada))
          .statusCode,
      ).toBe(200);
      await t.app.db
        .updateTable('call_reports')
        .set({ ended_at: new Date(Date.now() - 60 * 60_000) })
        .where('call_id', '=', callId)
        .execute();
      for (const side of [token, ada]) {
        expect(refusal(await report(callId, side))).toMatchObject({
          status: 409,
          code: 'call_over',
        });
      }
      expect(await qualityCount()).toBe(0);
    });

    it('refuses what no browser measures, naming the field (400)', async () => {
      const { callId, token } = await takenCall();
      const withoutReconnects: Partial<CallQualityBody> = { ...goodQuality };
      delete withoutReconnects.reconnects;
      for (const [body, field] of [
        [{ ...goodQuality, setupMs: -1 }, 'setupMs'],
        [{ ...goodQuality, setupMs: 1.5 }, 'setupMs'],
        [{ ...goodQuality, localCandidateType: 'teleport' }, 'localCandidateType'],
        [{ ...goodQuality, relayProtocol: 'carrier-pigeon' }, 'relayProtocol'],
        [{ ...goodQuality, packetsLost: '12' }, 'packetsLost'],
        [{ ...goodQuality, roundTripMs: 1e12 }, 'roundTripMs'],
        [{ ...goodQuality, iceFailed: 'no' }, 'iceFailed'],
        [withoutReconnects, 'reconnects'],
        [{ ...goodQuality, role: 'agent' }, 'role'],
      ] as const) {
        const refused = refusal(await report(callId, token, body));
        expect(refused).toMatchObject({ status: 400 });
        expect(refused.fields).toHaveProperty(field);
      }
      expect(await qualityCount()).toBe(0);
    });
  });
});
