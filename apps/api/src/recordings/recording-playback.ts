import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { recordAuditEntry, staffActor, type Actor } from '../audit/company-changes.ts';
import type { Database } from '../db/schema.ts';
import { ForbiddenError, InvalidInputError, NotFoundError } from '../domain-errors.ts';
import { recordingSignatureMatches, type RecordingGrant } from './recording-links.ts';

/** The bytes a `Range` header asks for, both ends included. */
export type ByteRange = { start: number; end: number };

/**
 * The one range of `header` within a file of `size` bytes: `undefined` for the whole file (no
 * header, or several ranges, which a server may answer whole), `'unsatisfiable'` for a range
 * the file does not have or a malformed one (416).
 */
export function byteRangeOf(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return header.includes(',') ? undefined : 'unsatisfiable';
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return 'unsatisfiable';
  if (first === '') {
    // `bytes=-500`: the last 500 bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** The signed link's parts as the route's query has them. */
export type RecordingLinkQuery = {
  company?: number | undefined;
  admin?: number | undefined;
  expires?: number | undefined;
  signature?: string | undefined;
};

export const hasLinkParts = (query: RecordingLinkQuery) =>
  query.company !== undefined ||
  query.admin !== undefined ||
  query.expires !== undefined ||
  query.signature !== undefined;

/**
 * The admin a signed recording link speaks for. SECURITY: refused (403) unless it is whole, not
 * expired, signed by this API for exactly this leg, company and admin, and that admin is still
 * an active admin of that company (a demoted or deactivated admin's links stop at once).
 */
export async function linkViewer(
  db: Kysely<Database>,
  apiTokenSecret: string,
  callId: string,
  query: RecordingLinkQuery,
  now: Date,
): Promise<{ companyId: number; actor: Actor }> {
  const { company, admin, expires, signature } = query;
  if (
    company === undefined ||
    admin === undefined ||
    expires === undefined ||
    signature === undefined
  ) {
    const missing = (['company', 'admin', 'expires', 'signature'] as const).filter(
      (field) => query[field] === undefined,
    );
    throw new InvalidInputError(
      'incomplete_link',
      'A recording link has company, admin, expires and signature: use the whole link.',
      Object.fromEntries(missing.map((field) => [field, 'is required with the other link parts'])),
    );
  }
  const grant: RecordingGrant = { companyId: company, callId, staffId: admin, expires };
  if (!recordingSignatureMatches(apiTokenSecret, grant, signature)) {
    throw new ForbiddenError('invalid_link', 'This recording link is not valid.');
  }
  if (expires * 1000 <= now.getTime()) {
    throw new ForbiddenError(
      'link_expired',
      'This recording link has expired: open the call again.',
    );
  }
  const staff = await db
    .selectFrom('staff')
    .select('email')
    .where('id', '=', admin)
    .where('company_id', '=', company)
    .where('role', '=', 'admin')
    .where('active', '=', true)
    .executeTakeFirst();
  if (!staff) {
    throw new ForbiddenError('invalid_link', 'This recording link is not valid.');
  }
  return { companyId: company, actor: { staffId: admin, label: staff.email } };
}

/** The admin behind a bearer token, named as the audit log names them. */
export async function tokenViewer(
  db: Kysely<Database>,
  principal: { companyId: number; staffId: number },
): Promise<{ companyId: number; actor: Actor }> {
  return { companyId: principal.companyId, actor: await staffActor(db, principal.staffId) };
}

/**
 * Where a call leg's merged film is, and what the download is called. SECURITY: a leg of
 * another company is as absent as one that never was (404): its id tells nothing.
 */
export async function readyRecording(
  db: Kysely<Database>,
  folder: string,
  companyId: number,
  callId: string,
): Promise<{ file: string; downloadName: string }> {
  const row = await db
    .selectFrom('call_recordings')
    .innerJoin('call_reports', 'call_reports.id', 'call_recordings.call_report_id')
    .select([
      'call_reports.id',
      'call_recordings.status',
      'call_recordings.file_name',
      'call_recordings.expired_at',
    ])
    .where('call_reports.call_id', '=', callId)
    .where('call_recordings.company_id', '=', companyId)
    .executeTakeFirst();
  if (row?.status !== 'ready' || row.file_name === null) {
    throw new NotFoundError(
      'no_recording',
      !row
        ? `Call ${callId} has no recording.`
        : row.expired_at
          ? `Call ${callId}'s recording was deleted at the end of the company's retention period.`
          : `Call ${callId}'s recording is ${row.status}, not ready to play.`,
    );
  }
  return { file: join(folder, row.file_name), downloadName: `${companyId}-call-${row.id}.mp4` };
}

/** Who played or downloaded which call's recording, in the company's audit log. */
export async function auditPlayback(
  db: Kysely<Database>,
  companyId: number,
  actor: Actor,
  callId: string,
  action: 'recording.played' | 'recording.downloaded',
): Promise<void> {
  await db.transaction().execute((trx) =>
    recordAuditEntry(trx, companyId, actor, {
      action,
      target: `call ${callId}`,
      before: undefined,
      after: undefined,
    }),
  );
}
