import type { Kysely } from 'kysely';
import type { Recording } from '@frontdesk/protocol';
import type { Database } from '../db/schema.ts';
import { signRecordingLink } from './recording-links.ts';

/** Who is shown the recordings: an admin of the company they belong to. */
export type RecordingViewer = { companyId: number; staffId: number };

/**
 * The recordings of a conversation's legs (`callReportIds`, its call reports) for its page:
 * one per leg that was recorded, in the order of `callReportIds`, with how its merge went and,
 * once `ready`, a link that plays it for `viewer` alone for a few minutes. SECURITY: only legs
 * of `viewer.companyId` are listed, whatever ids are asked for; the caller must have checked
 * `viewer` is an admin of that company.
 */
export async function recordingsOf(
  db: Kysely<Database>,
  apiTokenSecret: string,
  viewer: RecordingViewer,
  callReportIds: readonly number[],
  now = new Date(),
): Promise<Recording[]> {
  if (callReportIds.length === 0) return [];
  const rows = await db
    .selectFrom('call_recordings')
    .innerJoin('call_reports', 'call_reports.id', 'call_recordings.call_report_id')
    .select([
      'call_recordings.call_report_id',
      'call_reports.call_id',
      'call_recordings.status',
      'call_recordings.size_bytes',
      'call_recordings.duration_ms',
      'call_recordings.attempts',
      'call_recordings.last_error',
      'call_recordings.expired_at',
    ])
    .where('call_recordings.company_id', '=', viewer.companyId)
    .where('call_recordings.call_report_id', 'in', [...callReportIds])
    .execute();
  const byReport = new Map(rows.map((row) => [row.call_report_id, row]));
  return callReportIds.flatMap((id) => {
    const row = byReport.get(id);
    if (!row) return [];
    return [
      {
        callId: row.call_id,
        status: row.status,
        // bigint: typed as text, though the pool parses it into a number (db/database.ts).
        sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes),
        durationMs: row.duration_ms,
        attempts: row.attempts,
        error: row.status === 'failed' ? row.last_error : null,
        url:
          row.status === 'ready' && row.expired_at === null
            ? signRecordingLink(
                apiTokenSecret,
                { companyId: viewer.companyId, callId: row.call_id, staffId: viewer.staffId },
                now,
              )
            : null,
        ...(row.expired_at === null ? {} : { expiredAt: row.expired_at.toISOString() }),
      },
    ];
  });
}
