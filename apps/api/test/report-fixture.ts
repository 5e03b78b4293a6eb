import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { formatCallId, type Answers, type CallMethod } from '@frontdesk/protocol';
import type { Database } from '../src/db/schema.ts';

/**
 * Conversations written straight to the tables, as the call routes would have left them, at
 * chosen instants: the reports' tests need calls of a known past, which the live routes (that
 * stamp `now()`) cannot give.
 */

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A guest of `companyId` with a username of registration's shape. */
export async function addGuest(db: Kysely<Database>, companyId: number) {
  const name = [...randomBytes(25)].map((byte) => BASE32[byte % 32]).join('');
  return db
    .insertInto('guests')
    .values({
      company_id: companyId,
      username: `g${name}`,
      jabberusername: `g${companyId}-g${name}`,
      fingerprint: `fp${randomBytes(8).toString('hex')}`,
    })
    .returning(['id', 'username'])
    .executeTakeFirstOrThrow();
}

/**
 * Moves a row's `created_at` to `at`: the API never writes that column (the database stamps it),
 * so only a test's own statement can give a row a past.
 */
export async function backdate(
  db: Kysely<Database>,
  table: 'call_reports' | 'rating_submissions' | 'form_submissions' | 'uploads' | 'call_bugs',
  id: number | string,
  at: Date,
) {
  await sql`update ${sql.table(table)} set created_at = ${at} where id = ${id}`.execute(db);
}

/** An instant so many seconds after `start`. */
export const after = (start: string, seconds: number) =>
  new Date(Date.parse(start) + seconds * 1000);

export type LegSpec = {
  at: Date;
  categoryId?: number | null;
  status?: 'ok' | 'blocked' | 'outOfQuota';
  initiatedAt?: Date;
  answeredAt?: Date;
  agentId?: number;
  endedAt?: Date;
  endedBy?: 'guest' | 'agent' | 'server';
  transferToStaffId?: number;
  rating?: number;
  callType?: 'voice' | 'video';
  callMethod?: CallMethod;
  notes?: string;
};

/**
 * A conversation of `guest`: its origin and the legs a hold or transfer added, each chained to
 * the one before. Answers each leg's report id and call id.
 */
export async function addConversation(
  db: Kysely<Database>,
  companyId: number,
  guest: { id: number; username: string },
  legs: readonly LegSpec[],
) {
  const written: { id: number; callId: string }[] = [];
  let origin: string | undefined;
  for (const leg of legs) {
    const callId = formatCallId(guest.username, randomBytes(6).toString('hex'));
    const previous = written.at(-1);
    const row = await db
      .insertInto('call_reports')
      .values({
        company_id: companyId,
        guest_id: guest.id,
        call_id: callId,
        origin_call_id: origin ?? callId,
        previous_call_id: previous?.callId ?? null,
        category_id: leg.categoryId ?? null,
        source: 'site',
        status: leg.status ?? 'ok',
        call_type: leg.callType ?? 'video',
        call_method: leg.callMethod ?? 'mediaServer',
        call_initiated_at: leg.initiatedAt ?? null,
        agent_id: leg.agentId ?? null,
        answered_at: leg.answeredAt ?? null,
        ended_at: leg.endedAt ?? null,
        end_reason: leg.endedAt ? (leg.agentId ? 'completed' : 'abandoned') : null,
        ended_by: leg.endedBy ?? null,
        transfer_to_staff_id: leg.transferToStaffId ?? null,
        rating: leg.rating ?? null,
        notes: leg.notes ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await backdate(db, 'call_reports', row.id, leg.at);
    origin ??= callId;
    written.push({ id: row.id, callId });
  }
  return written;
}

type EventSpec = {
  kind: 'offered' | 'held' | 'resumed' | 'transfer_requested';
  at: Date;
  until?: Date;
  staffId: number;
  details?: Record<string, number>;
};

export async function addEvents(
  db: Kysely<Database>,
  companyId: number,
  callReportId: number,
  events: readonly EventSpec[],
) {
  await db
    .insertInto('call_events')
    .values(
      events.map((event) => ({
        company_id: companyId,
        call_report_id: callReportId,
        kind: event.kind,
        at: event.at,
        until: event.until ?? null,
        staff_id: event.staffId,
        details: event.details ? JSON.stringify(event.details) : null,
      })),
    )
    .execute();
}

export type QualitySpec = {
  role: 'guest' | 'agent';
  setupMs: number;
  candidate: 'host' | 'srflx' | 'relay';
  received: number;
  lost: number;
  roundTripMs: number;
  iceFailed?: boolean;
};

export async function addQuality(
  db: Kysely<Database>,
  companyId: number,
  callReportId: number,
  reportedAt: Date,
  quality: QualitySpec,
) {
  await db
    .insertInto('call_quality')
    .values({
      company_id: companyId,
      call_report_id: callReportId,
      role: quality.role,
      reported_at: reportedAt,
      setup_ms: quality.setupMs,
      local_candidate_type: quality.candidate,
      remote_candidate_type: 'host',
      relay_protocol: quality.candidate === 'relay' ? 'udp' : null,
      packets_received: quality.received,
      packets_lost: quality.lost,
      jitter_ms: 3,
      round_trip_ms: quality.roundTripMs,
      send_kbps: 800,
      receive_kbps: 750,
      reconnects: 0,
      ice_failed: quality.iceFailed ?? false,
    })
    .execute();
}

export async function addRecording(
  db: Kysely<Database>,
  companyId: number,
  callReportId: number,
  status: 'pending' | 'ready' | 'failed' | 'empty',
) {
  await db
    .insertInto('call_recordings')
    .values({
      company_id: companyId,
      call_report_id: callReportId,
      status,
      file_name: status === 'ready' ? `${callReportId}.mp4` : null,
      size_bytes: status === 'ready' ? 123_456 : null,
      duration_ms: status === 'ready' ? 60_000 : null,
      attempts: status === 'pending' ? 0 : 1,
      last_error: status === 'failed' ? 'ffmpeg exited with 1' : null,
    })
    .execute();
}

export async function addRatingSubmission(
  db: Kysely<Database>,
  guestId: number,
  callReportId: number,
  formId: number,
  answers: Answers,
  at: Date,
) {
  await db
    .insertInto('rating_submissions')
    .values({
      call_report_id: callReportId,
      form_id: formId,
      guest_id: guestId,
      answers: JSON.stringify(answers),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then(({ id }) => backdate(db, 'rating_submissions', id, at));
}
