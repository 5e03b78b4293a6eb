import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { envelope, reportCallPageSchema } from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../src/db/seed.ts';
import { bearer, buildTestApp, loginStaff, staffIdOf, type TestApp } from './helper.ts';
import {
  addConversation,
  addEvents,
  addGuest,
  addQuality,
  addRecording,
  after,
} from './report-fixture.ts';

const company = SEEDED_COMPANY.demo;
const DAY = '2026-09-01';
const START = `${DAY}T10:00:00.000Z`;

/**
 * The reports read each conversation's kept facts (report_conversations, migration 0020): every
 * write to a table they come from must show in the next report, and deleting the calls must
 * delete their facts.
 */
describe('report_conversations: the facts follow every write', () => {
  let t: TestApp;
  let admin: string;
  let agentId: number;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await loginStaff(t.app, 'admin@frontdesk.demo');
    agentId = await staffIdOf(t.app, 'ada@frontdesk.demo');
  });
  afterAll(() => t.close());

  const listedCall = async (callId: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/reports/calls?from=${DAY}&to=${DAY}`,
      headers: bearer(admin),
    });
    expect(response.statusCode, response.body).toBe(200);
    const page = envelope(reportCallPageSchema).parse(response.json()).data;
    return page.calls.find((call) => call.callId === callId);
  };

  it('shows each later write to the call, its holds, quality and recording', async () => {
    const { db } = t.app;
    const guest = await addGuest(db, company);
    const [leg] = await addConversation(db, company, guest, [
      { at: new Date(START), answeredAt: after(START, 10), agentId },
    ]);
    if (!leg) throw new Error('no leg written');
    expect(await listedCall(leg.callId)).toMatchObject({ outcome: 'live', holds: 0 });

    await addEvents(db, company, leg.id, [
      { kind: 'held', at: after(START, 20), staffId: agentId },
      { kind: 'resumed', at: after(START, 50), staffId: agentId },
    ]);
    await db
      .updateTable('call_reports')
      .set({ ended_at: after(START, 70), end_reason: 'completed' })
      .where('id', '=', leg.id)
      .execute();
    await addQuality(db, company, leg.id, after(START, 70), {
      role: 'guest',
      setupMs: 900,
      candidate: 'relay',
      received: 1000,
      lost: 0,
      roundTripMs: 80,
    });
    await addRecording(db, company, leg.id, 'pending');

    expect(await listedCall(leg.callId)).toMatchObject({
      outcome: 'answered',
      waitMs: 10_000,
      handleMs: 60_000,
      holds: 1,
      recorded: true,
      relayed: true,
      setupMs: 900,
    });
  });

  it('recomputes nothing for a write of no fact (a stamp, a look at the queue, a room)', async () => {
    const { db } = t.app;
    const guest = await addGuest(db, company);
    const [leg] = await addConversation(db, company, guest, [{ at: new Date(START) }]);
    if (!leg) throw new Error('no leg written');
    // The row's version: a recomputation writes it anew, whatever it writes.
    const version = async () =>
      (
        await sql<{ version: string; call_type: string | null }>`
          select xmin::text as version, call_type from report_conversations
          where origin_id = ${leg.id}`.execute(db)
      ).rows[0];
    const before = await version();
    await db
      .updateTable('call_reports')
      .set({
        call_initiated_at: after(START, 5),
        guest_seen_at: after(START, 6),
        room_pin: 'pin',
        room_secret: 'secret',
      })
      .where('id', '=', leg.id)
      .execute();
    expect(await version()).toEqual(before);
    await db
      .updateTable('call_reports')
      .set({ call_type: 'voice', guest_exit_at: after(START, 9) })
      .where('id', '=', leg.id)
      .execute();
    const recomputed = await version();
    expect(recomputed?.version).not.toBe(before?.version);
    expect(recomputed?.call_type).toBe('voice');
  });

  it('keeps no facts of a deleted guest’s calls', async () => {
    const { db } = t.app;
    const guest = await addGuest(db, company);
    const [leg] = await addConversation(db, company, guest, [
      { at: new Date(START), answeredAt: after(START, 5), agentId, endedAt: after(START, 30) },
    ]);
    if (!leg) throw new Error('no leg written');
    expect(await listedCall(leg.callId)).toMatchObject({ outcome: 'answered' });

    await db.deleteFrom('guests').where('id', '=', guest.id).execute();

    expect(await listedCall(leg.callId)).toBeUndefined();
    const { rows } = await sql<{ kept: number }>`
      select count(*)::int as kept from report_conversations where origin_id = ${leg.id}`.execute(
      db,
    );
    expect(rows[0]?.kept).toBe(0);
  });
});
