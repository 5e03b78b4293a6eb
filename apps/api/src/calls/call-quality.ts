import { sql, type Kysely } from 'kysely';
import type { CallQualityBody, CallSide } from '@frontdesk/protocol';
import type { CallReportRow, Database } from '../db/schema.ts';
import { ConflictError } from '../domain-errors.ts';

/**
 * How long after a call ended its sides may still report its media: each sends its report as
 * the call ends for it, and the guest's may follow the agent's end by a rating page's while.
 */
export const QUALITY_REPORT_GRACE_MS = 10 * 60_000;

/**
 * `PUT /api/calls/:callId/quality` (issue 17): what `side` measured of the call's media. Sent
 * again, it replaces that side's earlier report. 409 `call_refused` for a call that was never let
 * through (it had no media), 409 `call_over` once the call ended longer ago than the grace.
 */
export async function saveCallQuality(
  db: Kysely<Database>,
  call: Pick<CallReportRow, 'id' | 'company_id' | 'call_id' | 'status' | 'ended_at'>,
  side: CallSide,
  body: CallQualityBody,
  now: Date,
): Promise<void> {
  if (call.status !== 'ok') {
    throw new ConflictError('call_refused', `Call ${call.call_id} was not let through.`);
  }
  if (call.ended_at && now.getTime() - call.ended_at.getTime() > QUALITY_REPORT_GRACE_MS) {
    throw new ConflictError(
      'call_over',
      `Call ${call.call_id} ended too long ago to report its quality.`,
    );
  }
  const measured = {
    setup_ms: body.setupMs,
    local_candidate_type: body.localCandidateType,
    remote_candidate_type: body.remoteCandidateType,
    relay_protocol: body.relayProtocol,
    packets_received: body.packetsReceived,
    packets_lost: body.packetsLost,
    jitter_ms: body.jitterMs,
    round_trip_ms: body.roundTripMs,
    send_kbps: body.sendKbps,
    receive_kbps: body.receiveKbps,
    reconnects: body.reconnects,
    ice_failed: body.iceFailed,
  };
  await db
    .insertInto('call_quality')
    .values({ call_report_id: call.id, company_id: call.company_id, role: side, ...measured })
    .onConflict((oc) =>
      oc
        .columns(['call_report_id', 'role'])
        .doUpdateSet({ ...measured, reported_at: sql<Date>`now()` }),
    )
    .execute();
}
