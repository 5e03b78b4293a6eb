import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { callRecordingParts } from '../recordings/recording-files.ts';
import type { FileStorage } from '../uploads/file-storage.ts';

/**
 * Deleting personal data, one kind at a time (decision 0031): the nightly retention run and the
 * erasure of one guest (decision 0032) select what goes and call these. Each deletes the files
 * of what it is given first, then the rows: a crash in between leaves rows that are still due,
 * which the next call deletes (their files already gone is no error), and never a file that no
 * row names. Each answers how many it deleted.
 */

/** The rows only: data with no file (answers, bug reports and their logs, audit entries). */
type RowTable = 'form_submissions' | 'rating_submissions' | 'call_bugs' | 'audit_entries';

export async function deleteRows(
  db: Kysely<Database>,
  table: RowTable,
  ids: readonly number[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .deleteFrom(table)
    .where('id', 'in', [...ids])
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Uploaded files (`uploads.id` is the storage key): each file, then the rows. */
export async function deleteUploads(
  db: Kysely<Database>,
  storage: FileStorage,
  ids: readonly string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  for (const id of ids) await storage.remove(id);
  const result = await db
    .deleteFrom('uploads')
    .where('id', 'in', [...ids])
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The films of call legs (`call_recordings.call_report_id`): the merged MP4 and the call's Janus
 * `.mjr` parts in `folder`, then the row is marked `expired_at` with no `file_name`. The row
 * stays, with its status, so the reports still count the leg as recorded (decision 0031).
 * Recordings still `pending` are left: their merge may be writing the file.
 */
export async function deleteRecordingFiles(
  db: Kysely<Database>,
  folder: string,
  callReportIds: readonly number[],
  now: Date,
): Promise<number> {
  if (callReportIds.length === 0) return 0;
  const rows = await db
    .selectFrom('call_recordings')
    .innerJoin('call_reports', 'call_reports.id', 'call_recordings.call_report_id')
    .select(['call_recordings.call_report_id', 'call_recordings.file_name', 'call_reports.call_id'])
    .where('call_recordings.call_report_id', 'in', [...callReportIds])
    .where('call_recordings.status', '!=', 'pending')
    .execute();
  if (rows.length === 0) return 0;
  const files = existsSync(folder) ? await readdir(folder) : [];
  for (const row of rows) {
    const names = callRecordingParts(files, row.call_id).flat();
    if (row.file_name !== null) names.push(row.file_name);
    for (const name of names) await rm(join(folder, name), { force: true });
  }
  const result = await db
    .updateTable('call_recordings')
    .set({ file_name: null, expired_at: now, updated_at: now })
    .where(
      'call_report_id',
      'in',
      rows.map((row) => row.call_report_id),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** What a guest who called keeps of its identity once removed: a value no fingerprint hashes to. */
export const REMOVED_FINGERPRINT = 'expired';

/**
 * Guests' identities. A guest who never called is deleted (its answers and bug reports go with
 * it, by the foreign keys); one who called keeps its row, because its calls reference it and
 * the reports count them, but with nothing that identifies it: no fingerprint, no credential (no
 * browser can log in as it again), no location (decision 0031). Files it sent are the uploads'
 * own kind. Answers how many guests were deleted or stripped.
 */
export async function removeGuestIdentities(
  db: Kysely<Database>,
  guestIds: readonly number[],
  now: Date,
): Promise<number> {
  if (guestIds.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('guests')
      .where('id', 'in', [...guestIds])
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('call_reports')
              .select('id')
              .whereRef('call_reports.guest_id', '=', 'guests.id'),
          ),
        ),
      )
      .executeTakeFirst();
    const stripped = await trx
      .updateTable('guests')
      .set({
        fingerprint: REMOVED_FINGERPRINT,
        credential_hash: null,
        location_lat: null,
        location_lng: null,
        location_accuracy: null,
        inside_zone_at: null,
        identity_removed_at: now,
      })
      .where('id', 'in', [...guestIds])
      .where('identity_removed_at', 'is', null)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) + Number(stripped.numUpdatedRows);
  });
}
