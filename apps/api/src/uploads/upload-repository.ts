import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Database, UploadsTable } from '../db/schema.ts';
import type { StaffPrincipal } from '../auth/access-token.ts';
import { isLiveCall } from '../calls/call-coordination.ts';
import {
  ConflictError,
  ForbiddenError,
  LimitExceededError,
  NotFoundError,
} from '../domain-errors.ts';
import type { IncomingFile } from './file-storage.ts';

/** An upload's row, but for the call it was sent in: {@link recordUpload} finds that under lock. */
export type NewUpload = Omit<Insertable<UploadsTable>, 'call_report_id'> & {
  guest_id: number | null;
};

/**
 * The call a file is sent in: a guest's own live call (its row), or the call an agent names
 * (its `callId`, migration 0033; the file then goes with the call's guest's data, decision 0032);
 * `null` for none (an admin's logo).
 */
export type SentIn =
  | { by: 'guest'; callReportId: number }
  | { by: 'staff'; staff: StaffPrincipal; callId: string }
  | null;

/** A guest sends files only into its live call. */
export const noLiveCall = () =>
  new ForbiddenError('no_live_call', 'Files can be sent only during a call.');

/**
 * Records the upload and keeps its file under the row's id, in one transaction: the row is
 * committed only once the file is kept. The call it is sent in is checked with its row locked,
 * so a call that ends, or passes to another agent, while the file arrives takes no file after:
 * the end waits for the upload, or the upload sees the end.
 */
export async function recordUpload(
  db: Kysely<Database>,
  upload: NewUpload,
  sentIn: SentIn,
  file: Pick<IncomingFile, 'keep'>,
  callQuotaBytes: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    let callReportId: number | null = null;
    if (sentIn?.by === 'guest') {
      callReportId = await guestCallWithRoom(trx, sentIn.callReportId, upload, callQuotaBytes);
    } else if (sentIn?.by === 'staff') {
      callReportId = await agentsLiveCall(trx, sentIn.staff, sentIn.callId);
    }
    await trx
      .insertInto('uploads')
      .values({ ...upload, call_report_id: callReportId })
      .execute();
    await file.keep(upload.id);
  });
}

/**
 * The guest's call, still live, with room for the upload: a guest's uploads count against its
 * call's quota of `callQuotaBytes` (an agent's do not: the quota holds back guests). The row is
 * locked for update, so two uploads at once cannot both take the quota's last bytes.
 */
async function guestCallWithRoom(
  trx: Transaction<Database>,
  callReportId: number,
  upload: NewUpload,
  callQuotaBytes: number,
): Promise<number> {
  const call = await trx
    .selectFrom('call_reports')
    .select(['status', 'ended_at', 'created_at'])
    .where('id', '=', callReportId)
    .forUpdate()
    .executeTakeFirst();
  if (!call || !isLiveCall(call)) throw noLiveCall();
  const { used } = await trx
    .selectFrom('uploads')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size_bytes'), eb.lit(0)).as('used'))
    .where('call_report_id', '=', callReportId)
    .where('guest_id', 'is not', null)
    .executeTakeFirstOrThrow();
  if (Number(used) + upload.size_bytes > callQuotaBytes) {
    throw new LimitExceededError(
      'call_quota_exceeded',
      `A call may receive at most ${(callQuotaBytes / 1024 / 1024).toFixed(1)} MB of files.`,
      { [upload.type]: 'is more than the call has left' },
    );
  }
  return callReportId;
}

/**
 * The call a member of staff sends a file in, locked for share until the upload is recorded.
 * SECURITY: only the agent who took the call, while it is live; a call of another company is
 * refused as one not theirs, telling nothing of it.
 */
async function agentsLiveCall(
  trx: Transaction<Database>,
  staff: StaffPrincipal,
  callId: string,
): Promise<number> {
  const call = await trx
    .selectFrom('call_reports')
    .select(['id', 'agent_id', 'status', 'ended_at', 'created_at'])
    .where('call_id', '=', callId)
    .where('company_id', '=', staff.companyId)
    .forShare()
    .executeTakeFirst();
  if (call?.agent_id !== staff.staffId) {
    throw new ForbiddenError(
      'not_your_call',
      `Only the agent who took call ${callId} may send files in it.`,
      { callId: 'is not a call you took' },
    );
  }
  if (!isLiveCall(call)) {
    throw new ConflictError(
      'call_not_live',
      `Call ${callId} has ended: files are sent in a live call.`,
      { callId: 'is not live' },
    );
  }
  return call.id;
}

/** The upload named by the id in its URL, or a refusal when there is none. */
export async function requireUpload(
  db: Kysely<Database>,
  id: string,
): Promise<Selectable<UploadsTable>> {
  const upload = await db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
  if (!upload) throw new NotFoundError('file_not_found', 'There is no such file.');
  return upload;
}
