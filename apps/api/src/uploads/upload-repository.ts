import type { Insertable, Kysely, Selectable } from 'kysely';
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

/**
 * An upload's row; `call_report_id` names the live call its guest, or the agent who took the
 * call, sent it in, else `null`.
 */
export type NewUpload = Insertable<UploadsTable> & {
  guest_id: number | null;
  call_report_id: number | null;
};

/**
 * Records the upload and keeps its file under the row's id, in one transaction: the row is
 * committed only once the file is kept. A guest's upload counts against its call's quota of
 * `callQuotaBytes` (an agent's does not: the quota holds back guests); the call's row is locked
 * while its uploads are counted, so two uploads at once cannot both take the quota's last bytes.
 */
export async function recordUpload(
  db: Kysely<Database>,
  upload: NewUpload,
  file: Pick<IncomingFile, 'keep'>,
  callQuotaBytes: number,
): Promise<void> {
  const callId = upload.guest_id === null ? null : upload.call_report_id;
  await db.transaction().execute(async (trx) => {
    if (callId !== null) {
      await trx
        .selectFrom('call_reports')
        .select('id')
        .where('id', '=', callId)
        .forUpdate()
        .execute();
      const { used } = await trx
        .selectFrom('uploads')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size_bytes'), eb.lit(0)).as('used'))
        .where('call_report_id', '=', callId)
        .where('guest_id', 'is not', null)
        .executeTakeFirstOrThrow();
      if (Number(used) + upload.size_bytes > callQuotaBytes) {
        throw new LimitExceededError(
          'call_quota_exceeded',
          `A call may receive at most ${(callQuotaBytes / 1024 / 1024).toFixed(1)} MB of files.`,
          { [upload.type]: 'is more than the call has left' },
        );
      }
    }
    await trx.insertInto('uploads').values(upload).execute();
    await file.keep(upload.id);
  });
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

/**
 * The call a member of staff sends a file in (its `callId`, migration 0033): the file then goes
 * with the call's guest's data (decision 0032). SECURITY: only the agent who took the call, while
 * it is live; a call of another company is refused as one not theirs, telling nothing of it.
 */
export async function staffCallOf(
  db: Kysely<Database>,
  principal: StaffPrincipal,
  callId: string,
): Promise<{ id: number }> {
  const call = await db
    .selectFrom('call_reports')
    .select(['id', 'agent_id', 'status', 'ended_at', 'created_at'])
    .where('call_id', '=', callId)
    .where('company_id', '=', principal.companyId)
    .executeTakeFirst();
  if (call?.agent_id !== principal.staffId) {
    throw new ForbiddenError(
      'not_your_call',
      `Only the agent who took call ${callId} may send files in it.`,
      {
        callId: 'is not a call you took',
      },
    );
  }
  if (!isLiveCall(call)) {
    throw new ConflictError(
      'call_not_live',
      `Call ${callId} has ended: files are sent in a live call.`,
      {
        callId: 'is not live',
      },
    );
  }
  return { id: call.id };
}
