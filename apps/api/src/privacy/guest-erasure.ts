import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sql, type Kysely, type Transaction } from 'kysely';
import { formatCallId, type GuestErasure } from '@frontdesk/protocol';
import {
  disconnectUser,
  forbidMessagesFrom,
  unregisterUser,
  type RoomAdmin,
} from '@frontdesk/chat/server';
import { recordAuditEntry, type Actor } from '../audit/company-changes.ts';
import type { Database } from '../db/schema.ts';
import { isLiveCall } from '../calls/call-coordination.ts';
import { ConflictError } from '../domain-errors.ts';
import { newGuestUsername } from '../guests/guest-identity.ts';
import type { FileStorage } from '../uploads/file-storage.ts';
import { guestJabberUsername, staffJabberUsername } from '../xmpp/addresses.ts';
import { deleteRecordingFiles, deleteRows, deleteUploads } from './deletion.ts';
import { ERASED, guestHoldings, holdingsCounts, type GuestHoldings } from './guest-data.ts';
import type { GuestFileFolders } from './guest-export.ts';

/** What an erasure reaches beyond the database. */
export type ErasureReach = GuestFileFolders & {
  /** The browsers' error reports kept on disk (`<data>/monitoring/<day>/*.envelope`). */
  monitoringDir: string;
  xmpp: RoomAdmin;
};

/**
 * `DELETE /company/:id/guests/:guestId` (decision 0032): the guest's XMPP account, its files,
 * then its rows (its calls kept for the reports, anonymised, on a new guest row that identifies
 * nobody). 404 for no such guest of the company; 409 while one of its calls is live or a film of
 * it is still being merged.
 */
export async function eraseGuest(
  db: Kysely<Database>,
  companyId: number,
  guestId: number,
  actor: Actor,
  reach: ErasureReach,
): Promise<GuestErasure> {
  const holdings = await guestHoldings(db, companyId, guestId);
  if (holdings.call_reports.some(isLiveCall)) {
    throw new ConflictError(
      'guest_in_call',
      'The guest is in a call now: erase its data once the call has ended.',
    );
  }
  if (holdings.call_recordings.some((recording) => recording.status === 'pending')) {
    throw new ConflictError(
      'recording_pending',
      'A recording of the guest is still being made: erase its data once it is ready.',
    );
  }
  const [guest] = holdings.guests;
  if (!guest) throw new Error('guestHoldings answers its guest');
  const counts = holdingsCounts(holdings);
  await forgetInXmpp(holdings, guest.jabberusername, reach.xmpp);
  // Files first, then rows (decision 0031): a failure in between leaves the guest's rows, and
  // erasing again finishes; never a file that no row names.
  await eraseFiles(db, holdings, reach);
  await db.transaction().execute(async (trx) => {
    await eraseRows(trx, companyId, holdings, reach.fileStorage);
    await recordAuditEntry(trx, companyId, actor, {
      action: 'guest.erase',
      target: `guest ${guestId}`,
      before: null,
      after: counts,
    });
  });
  return counts;
}

/** The guest's sessions end, the agents who talked to it lose it from their rosters, the account goes. */
async function forgetInXmpp(
  holdings: GuestHoldings,
  jabberUsername: string,
  xmpp: RoomAdmin,
): Promise<void> {
  await disconnectUser(xmpp, jabberUsername);
  const agents = new Set(
    holdings.call_reports.flatMap((call) => (call.agent_id === null ? [] : [call.agent_id])),
  );
  await Promise.all(
    [...agents].map((agent) =>
      forbidMessagesFrom(xmpp, staffJabberUsername(agent), jabberUsername),
    ),
  );
  await unregisterUser(xmpp, jabberUsername);
}

async function eraseRows(
  trx: Transaction<Database>,
  companyId: number,
  holdings: GuestHoldings,
  fileStorage: FileStorage,
): Promise<void> {
  const [guest] = holdings.guests;
  if (!guest) throw new Error('guestHoldings answers its guest');
  const callReportIds = holdings.call_reports.map((call) => call.id);
  // The guest's token outlives the XMPP and file steps: a call it began meanwhile would go with
  // the guest row (call_reports cascade). Locked, no new call can name the guest until the end.
  await trx.selectFrom('guests').select('id').where('id', '=', guest.id).forUpdate().execute();
  const callsNow = await trx
    .selectFrom('call_reports')
    .select('id')
    .where('guest_id', '=', guest.id)
    .execute();
  if (
    callsNow.length !== callReportIds.length ||
    callsNow.some((call) => !callReportIds.includes(call.id))
  ) {
    throw new ConflictError(
      'guest_in_call',
      'The guest began a call while its data was being erased: erase it again once the call has ended.',
    );
  }
  const idsOf = <I>(rows: { id: I }[]): I[] => rows.map((row) => row.id);
  await deleteUploads(trx, fileStorage, idsOf(holdings.uploads));
  await deleteRows(trx, 'rating_submissions', idsOf(holdings.rating_submissions));
  await deleteRows(trx, 'form_submissions', idsOf(holdings.form_submissions));
  await deleteRows(trx, 'call_bugs', idsOf(holdings.call_bugs));
  const blockIds = idsOf(holdings.guest_blocks);
  if (blockIds.length > 0)
    await trx.deleteFrom('guest_blocks').where('id', 'in', blockIds).execute();

  // What the audit log said of the guest (a block names its fingerprint and call) says `erased`.
  const named = [
    guest.fingerprint,
    guest.username,
    guest.jabberusername,
    ...holdings.call_reports.map((call) => call.call_id),
  ];
  for (const text of named) {
    const pattern = `%${text}%`;
    await trx
      .updateTable('audit_entries')
      .set({
        target: sql`replace(target, ${text}, ${ERASED})`,
        before: sql`replace("before"::text, ${text}, ${ERASED})::jsonb`,
        after: sql`replace("after"::text, ${text}, ${ERASED})::jsonb`,
      })
      .where('company_id', '=', companyId)
      .where((eb) =>
        eb.or([
          eb('target', 'like', pattern),
          eb(sql`"before"::text`, 'like', pattern),
          eb(sql`"after"::text`, 'like', pattern),
        ]),
      )
      .execute();
  }

  if (callReportIds.length > 0) {
    // The calls stay for the reports on a guest row that identifies nobody (decision 0031's
    // identity-less guest), under new call ids: a call id begins with its guest's username.
    const username = newGuestUsername();
    const anonymous = await trx
      .insertInto('guests')
      .values({
        company_id: companyId,
        username,
        fingerprint: ERASED,
        jabberusername: guestJabberUsername(companyId, username),
        identity_removed_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const renamed = holdings.call_reports.map((call) => ({
      old: call.call_id,
      new: formatCallId(username, randomBytes(12).toString('hex')),
    }));
    const mapping = sql.join(renamed.map((pair) => sql`(${pair.old}, ${pair.new})`));
    // One statement: a leg's origin and previous call are renamed with it, so the call chain's
    // references hold when the statement ends.
    await sql`
      with renamed (old_id, new_id) as (values ${mapping})
      update call_reports r set
        guest_id = ${anonymous.id},
        call_id = (select new_id from renamed where old_id = r.call_id),
        origin_call_id = coalesce(
          (select new_id from renamed where old_id = r.origin_call_id), r.origin_call_id),
        previous_call_id = coalesce(
          (select new_id from renamed where old_id = r.previous_call_id), r.previous_call_id),
        guest_local_sdp = null, guest_remote_sdp = null, guest_user_agent = null,
        notes = null, follow_up_note = null, guest_erased_at = now()
      where r.id in (${sql.join(callReportIds)})`.execute(trx);
  }
  await trx.deleteFrom('guests').where('id', '=', guest.id).execute();
}

/** The files the guest sent, the films of its calls, the error reports that name it. */
async function eraseFiles(
  db: Kysely<Database>,
  holdings: GuestHoldings,
  reach: ErasureReach,
): Promise<void> {
  const [guest] = holdings.guests;
  if (!guest) throw new Error('guestHoldings answers its guest');
  for (const upload of holdings.uploads) await reach.fileStorage.remove(upload.id);
  await deleteRecordingFiles(
    db,
    reach.recordingsDir,
    holdings.call_reports.map((call) => call.id),
    new Date(),
  );
  await eraseErrorReports(reach.monitoringDir, [
    guest.username,
    guest.jabberusername,
    ...holdings.call_reports.map((call) => call.call_id),
  ]);
}

/** The browsers' error reports on disk that name the guest or one of its calls. */
async function eraseErrorReports(root: string, names: readonly string[]): Promise<void> {
  if (!existsSync(root)) return;
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const content = await readFile(path, 'latin1');
    if (names.some((name) => content.includes(name))) await rm(path, { force: true });
  }
}
