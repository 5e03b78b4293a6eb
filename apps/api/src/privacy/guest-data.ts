import { sql, type Kysely } from 'kysely';
import {
  GUEST_SEARCH_MAX,
  type Answers,
  type GuestErasure,
  type GuestFound,
  type GuestSearchQuery,
} from '@frontdesk/protocol';
import type { Database } from '../db/schema.ts';
import { NotFoundError } from '../domain-errors.ts';

/** `%`, `_` and `\` taken literally in an `ilike` pattern. */
const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** What stands for an erased guest's fingerprint, and in the audit log for its calls. */
export const ERASED = 'erased';

/**
 * `GET /company/:id/guests` (decision 0032): the company's guests with a call of that id, with a
 * call begun in the range, or with a welcome answer containing the text; the latest call first.
 */
export async function findGuests(
  db: Kysely<Database>,
  companyId: number,
  query: GuestSearchQuery,
): Promise<GuestFound[]> {
  let matches = db
    .selectFrom('guests as g')
    .select(['g.id', 'g.username', 'g.created_at'])
    .where('g.company_id', '=', companyId)
    // An erased guest's calls stay on a row that identifies nobody: nothing to find there. A
    // guest whose identity aged out (decision 0031) may still have answers, files or films.
    .where('g.fingerprint', '<>', ERASED);
  if (query.callId !== undefined) {
    const { callId } = query;
    matches = matches.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('call_reports as r')
          .select('r.id')
          .whereRef('r.guest_id', '=', 'g.id')
          .where('r.call_id', '=', callId),
      ),
    );
  } else if (query.from !== undefined && query.to !== undefined) {
    const { from, to } = query;
    matches = matches.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('call_reports as r')
          .select('r.id')
          .whereRef('r.guest_id', '=', 'g.id')
          .where('r.created_at', '>=', new Date(from))
          .where('r.created_at', '<', new Date(to)),
      ),
    );
  } else if (query.answer !== undefined) {
    const pattern = `%${likeLiteral(query.answer)}%`;
    matches = matches.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('form_submissions as s').select('s.id').whereRef('s.guest_id', '=', 'g.id')
          .where(sql<boolean>`exists (select 1 from jsonb_each_text(s.answers) a
            where a.value ilike ${pattern})`),
      ),
    );
  }
  const guests = await matches
    .select((eb) =>
      eb
        .selectFrom('call_reports as r')
        .select((inner) => inner.fn.max('r.created_at').as('latest'))
        .whereRef('r.guest_id', '=', 'g.id')
        .as('latest_call_at'),
    )
    .orderBy(sql`latest_call_at desc nulls last`)
    .orderBy('g.id', 'desc')
    .limit(GUEST_SEARCH_MAX)
    .execute();
  if (guests.length === 0) return [];
  const ids = guests.map((guest) => guest.id);
  const [calls, answers] = await Promise.all([
    db
      .selectFrom('call_reports')
      .select(['guest_id', 'call_id', 'created_at'])
      .where('guest_id', 'in', ids)
      .orderBy('created_at', 'desc')
      .execute(),
    db
      .selectFrom('form_submissions')
      .select(['guest_id', 'answers'])
      .distinctOn('guest_id')
      .where('guest_id', 'in', ids)
      .orderBy('guest_id')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute(),
  ]);
  const latestAnswers = new Map<number, Answers>(answers.map((a) => [a.guest_id, a.answers]));
  return guests.map((guest) => ({
    id: guest.id,
    username: guest.username,
    registeredAt: guest.created_at.toISOString(),
    calls: calls
      .filter((call) => call.guest_id === guest.id)
      .map((call) => ({ callId: call.call_id, startedAt: call.created_at.toISOString() })),
    latestAnswers: latestAnswers.get(guest.id) ?? null,
  }));
}

/**
 * Everything held about one guest of the company, table by table as stored (decision 0032),
 * for its export and its erasure. SECURITY: a guest of another company is not found (404).
 */
export async function guestHoldings(db: Kysely<Database>, companyId: number, guestId: number) {
  const guest = await db
    .selectFrom('guests')
    .selectAll()
    .where('id', '=', guestId)
    .where('company_id', '=', companyId)
    .where('fingerprint', '<>', ERASED)
    .executeTakeFirst();
  if (!guest) {
    throw new NotFoundError('guest_not_found', `Company ${companyId} has no guest ${guestId}.`);
  }
  // Everything but the credential's hash: a secret, not data about the guest.
  const guestRow: Omit<typeof guest, 'credential_hash'> & { credential_hash?: string | null } = {
    ...guest,
  };
  delete guestRow.credential_hash;
  const callReports = await db
    .selectFrom('call_reports')
    .selectAll()
    .where('guest_id', '=', guestId)
    .orderBy('id')
    .execute();
  const callReportIds = callReports.map((call) => call.id);
  const callIds = callReports.map((call) => call.call_id);
  const ofCalls = <T>(rows: () => Promise<T[]>): Promise<T[]> =>
    callReportIds.length === 0 ? Promise.resolve([]) : rows();
  const [
    callEvents,
    callQuality,
    callRecordings,
    formSubmissions,
    ratingSubmissions,
    uploads,
    callBugs,
    guestBlocks,
  ] = await Promise.all([
    ofCalls(() =>
      db
        .selectFrom('call_events')
        .selectAll()
        .where('call_report_id', 'in', callReportIds)
        .orderBy('id')
        .execute(),
    ),
    ofCalls(() =>
      db
        .selectFrom('call_quality')
        .selectAll()
        .where('call_report_id', 'in', callReportIds)
        .execute(),
    ),
    ofCalls(() =>
      db
        .selectFrom('call_recordings')
        .selectAll()
        .where('call_report_id', 'in', callReportIds)
        .execute(),
    ),
    db
      .selectFrom('form_submissions')
      .selectAll()
      .where('guest_id', '=', guestId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('rating_submissions')
      .selectAll()
      .where('guest_id', '=', guestId)
      .orderBy('id')
      .execute(),
    // The files it sent, and those its agents sent in its calls (migration 0033).
    db
      .selectFrom('uploads')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('guest_id', '=', guestId),
          ...(callReportIds.length > 0 ? [eb('call_report_id', 'in', callReportIds)] : []),
        ]),
      )
      .orderBy('created_at')
      .execute(),
    db.selectFrom('call_bugs').selectAll().where('guest_id', '=', guestId).orderBy('id').execute(),
    db
      .selectFrom('guest_blocks')
      .selectAll()
      .where('company_id', '=', companyId)
      .where((eb) =>
        eb.or([
          eb('fingerprint', '=', guest.fingerprint),
          ...(callIds.length > 0 ? [eb('call_id', 'in', callIds)] : []),
        ]),
      )
      .orderBy('id')
      .execute(),
  ]);
  return {
    guests: [guestRow],
    call_reports: callReports,
    call_events: callEvents,
    call_quality: callQuality,
    call_recordings: callRecordings,
    form_submissions: formSubmissions,
    rating_submissions: ratingSubmissions,
    uploads,
    call_bugs: callBugs,
    guest_blocks: guestBlocks,
  };
}

export type GuestHoldings = Awaited<ReturnType<typeof guestHoldings>>;

/** How much is held, as the audit log keeps an export or an erasure: counts, never what. */
export const holdingsCounts = (holdings: GuestHoldings): GuestErasure => ({
  calls: holdings.call_reports.length,
  answers: holdings.form_submissions.length + holdings.rating_submissions.length,
  files: holdings.uploads.length,
  recordings: holdings.call_recordings.filter((r) => r.file_name !== null).length,
});
