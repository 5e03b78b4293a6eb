import { sql, type Kysely, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import {
  callMethodOf,
  parseCallId,
  type CallEndedBy,
  type CallEndReason,
  type CallReport,
  type CallReportAddBody,
  type CallReportChanges,
  type CallReportStatus,
  type CompanyDetails,
  type CompanySettings,
  type HoldCallBody,
} from '@frontdesk/protocol';
import type { GuestPrincipal, Principal } from '../auth/access-token.ts';
import { callsThisMonth } from '../companies/call-quota.ts';
import type { CallReportRow, Database } from '../db/schema.ts';
import { assertOwnCompany, assertOwnUsername } from '../plugins/auth.ts';
import {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
} from '../domain-errors.ts';
import { assertCallAdmitted } from './call-admission.ts';
import { settledInOrder } from './settled-in-order.ts';

/** A report with the names of its guest, which every answer about a call carries. */
export type ReportWithGuest = CallReportRow & {
  guest_username: string;
  guest_jabberusername: string;
};

/** The answer shape of a report (field names of spec §3 "Call report fields"). */
function toCallReport(row: CallReportRow & { guest_username: string }): CallReport {
  return {
    id: row.id,
    call_id: row.call_id,
    origin_call_id: row.origin_call_id,
    previous_call_id: row.previous_call_id,
    company: row.company_id,
    category_id: row.category_id,
    guest_username: row.guest_username,
    source: row.source,
    status: row.status,
    success: row.success,
    call_type: row.call_type,
    assignmentGroup: row.assignment_group,
    rating: row.rating,
    created_at: row.created_at.toISOString(),
    call_initiated_timestamp: row.call_initiated_at?.toISOString() ?? null,
    guest_exit_timestamp: row.guest_exit_at?.toISOString() ?? null,
  };
}

async function findReport(
  db: Kysely<Database>,
  callId: string,
): Promise<ReportWithGuest | undefined> {
  return db
    .selectFrom('call_reports')
    .innerJoin('guests', 'guests.id', 'call_reports.guest_id')
    .selectAll('call_reports')
    .select(['guests.username as guest_username', 'guests.jabberusername as guest_jabberusername'])
    .where('call_reports.call_id', '=', callId)
    .executeTakeFirst();
}

/**
 * SECURITY: a guest may touch only its own reports; an agent or admin only its company's.
 * Unknown call ids answer 404, foreign ones 403.
 */
export function assertMayTouch(principal: Principal, report: CallReportRow): void {
  if (
    principal.role === 'guest'
      ? report.guest_id !== principal.guestId
      : report.company_id !== principal.companyId
  ) {
    throw new ForbiddenError('not_your_call', `Call ${report.call_id} belongs to someone else.`);
  }
}

/** The report of `callId`, or 404. */
export async function requireCall(db: Kysely<Database>, callId: string): Promise<ReportWithGuest> {
  const report = await findReport(db, callId);
  if (!report)
    throw new NotFoundError('call_report_not_found', `There is no report of call ${callId}.`);
  return report;
}

/** The report of `callId` that `principal` may touch, or 404/403. */
export async function requireReport(
  db: Kysely<Database>,
  principal: Principal,
  callId: string,
): Promise<ReportWithGuest> {
  const report = await requireCall(db, callId);
  assertMayTouch(principal, report);
  return report;
}

/** spec §3: a call id starts with the guest's username; a guest may open calls only for itself. */
export function assertOwnCallId(principal: GuestPrincipal, callId: string, field: string): void {
  if (parseCallId(callId)?.username !== principal.username) {
    throw new ForbiddenError('not_your_call', 'A call id must start with your own username.', {
      [field]: 'must start with your username and "--"',
    });
  }
}

/** 400 naming `field` unless the category is the company's (and not deleted). */
export async function assertCategoryOf(
  db: Kysely<Database>,
  companyId: number,
  categoryId: number | undefined,
  field = 'category_id',
) {
  if (categoryId === undefined) return;
  const category = await db
    .selectFrom('categories')
    .select('id')
    .where('id', '=', categoryId)
    .where('company_id', '=', companyId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!category) {
    throw new InvalidInputError(
      'unknown_category',
      `Company ${companyId} has no category ${categoryId}.`,
      { [field]: 'is not a category of the company' },
    );
  }
}

/**
 * 400 naming `assignmentGroup` unless it fits the company (decision 0019): one of its current
 * `assignmentGroups` while it uses `assignments`; required then, unless it lists no group; never
 * given when it does not use them.
 */
export function assertAssignmentGroupOf(
  company: Pick<CompanyDetails, 'id' | 'assignments' | 'assignmentGroups'>,
  groupId: string | undefined,
): void {
  const field = 'assignmentGroup';
  if (!company.assignments) {
    if (groupId === undefined) return;
    throw new InvalidInputError(
      'unknown_assignment_group',
      `Company ${company.id} does not assign calls to groups.`,
      { [field]: 'must be left out: the company does not assign calls to groups' },
    );
  }
  if (groupId === undefined) {
    if (company.assignmentGroups.length === 0) return;
    throw new InvalidInputError(
      'assignment_group_required',
      `Company ${company.id} asks its guests to pick an assignment group.`,
      { [field]: "is required: pick one of the company's assignment groups" },
    );
  }
  if (!company.assignmentGroups.some((group) => group.id === groupId)) {
    throw new InvalidInputError(
      'unknown_assignment_group',
      `Company ${company.id} has no assignment group ${groupId}.`,
      { [field]: 'is not an assignment group of the company' },
    );
  }
}

/**
 * 400 naming `recording` when the guest declines recording where the company does not let it
 * (decision 0030): it records every call (`recordingOptional` off) or none.
 */
export function assertRecordingChoiceOf(
  company: Pick<CompanyDetails, 'id' | 'recordCalls' | 'recordingOptional'>,
  recording: CallReportAddBody['recording'],
): void {
  if (recording === undefined || (company.recordCalls && company.recordingOptional)) return;
  throw new InvalidInputError(
    'recording_not_optional',
    `Company ${company.id} does not let its guests choose whether a call is recorded.`,
    { recording: 'must be left out: the company does not let guests decline recording' },
  );
}

/**
 * Whether the company's media server records a call (decision 0030): the company records calls
 * and the guest did not decline. What the call's method (decision 0045) and its room follow.
 */
export function isRecorded(
  company: Pick<CompanySettings, 'recordCalls'>,
  call: { recording_declined: boolean },
): boolean {
  return company.recordCalls && !call.recording_declined;
}

/** The company's block-list entry that holds the guest's browser (spec §6), as a subquery. */
const blockOf = (db: Kysely<Database>, guestId: number) =>
  db
    .selectFrom('guest_blocks as b')
    .innerJoin('guests as g', (join) =>
      join.onRef('g.fingerprint', '=', 'b.fingerprint').onRef('g.company_id', '=', 'b.company_id'),
    )
    .select('b.fingerprint')
    .where('g.id', '=', guestId);

/**
 * `call-report/admission` (issue 18): what `call-report/add` would decide for a call of the
 * guest's now, without recording anything, so the page can tell the guest before the welcome
 * form and the camera: `blocked` and `outOfQuota` first (nothing the guest does changes them),
 * then the company's rules (403, the welcome form among them), else `ok`. `call-report/add`
 * decides again when the call starts.
 */
export async function checkCallAdmission(
  db: Kysely<Database>,
  principal: GuestPrincipal,
  companyId: number,
  loadCompany: (id: number) => Promise<CompanyDetails>,
  now: Date,
): Promise<CallReportStatus> {
  assertOwnCompany(principal, companyId);
  const { blocked, quota } = await db
    .selectFrom('companies')
    .select((eb) => [
      eb.exists(blockOf(db, principal.guestId)).as('blocked'),
      'monthly_call_quota as quota',
    ])
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
  if (blocked) return 'blocked';
  if (quota !== null && (await callsThisMonth(db, companyId)).used >= quota) return 'outOfQuota';
  await assertCallAdmitted(db, await loadCompany(companyId), principal.guestId, now);
  return 'ok';
}

/**
 * Inserts the report of a new call with `status`, or `blocked` when the company's block list
 * holds the guest (spec §6), in one statement; nothing when the call id is reported already.
 */
/** The longest User-Agent kept with a call: real ones are under 300 characters. */
const USER_AGENT_MAX = 512;

async function insertNewReport(
  db: Kysely<Database>,
  principal: GuestPrincipal,
  body: CallReportAddBody,
  company: CompanyDetails,
  status: CallReportStatus,
  userAgent: string | null,
): Promise<CallReportRow | undefined> {
  const recordingDeclined = body.recording === 'declined';
  return db
    .insertInto('call_reports')
    .values((eb) => ({
      company_id: body.company,
      guest_id: principal.guestId,
      call_id: body.call_id,
      origin_call_id: body.call_id,
      category_id: body.category_id ?? null,
      assignment_group: body.assignmentGroup ?? null,
      source: body.source,
      webview: body.webview ?? false,
      recording_declined: recordingDeclined,
      // Fixed now: a company changing its method later leaves this call as it began.
      call_method: callMethodOf(
        company,
        isRecorded(company, { recording_declined: recordingDeclined }),
      ),
      guest_user_agent: userAgent?.slice(0, USER_AGENT_MAX) || null,
      status: eb
        .case()
        .when(eb.exists(blockOf(db, principal.guestId)))
        .then(sql.lit<CallReportStatus>('blocked'))
        .else(status)
        .end(),
    }))
    .onConflict((oc) => oc.column('call_id').doNothing())
    .returningAll()
    .executeTakeFirst();
}

/**
 * `call-report/add` (spec §7): once the company's rules admit the call (403 otherwise), records
 * it and decides whether it may start (spec §4 "Report initialisation"): `blocked` when the
 * company's block list holds the guest, `outOfQuota` when the company's monthly calls are used
 * up, else `ok`. Refused calls are recorded too.
 * Adding the same call id again answers the first report (the guest retries on network errors).
 */
export async function addCallReport(
  db: Kysely<Database>,
  principal: GuestPrincipal,
  body: CallReportAddBody,
  loadCompany: (id: number) => Promise<CompanyDetails>,
  now: Date,
  /** The guest browser's User-Agent, for the agent's guest panel (issue 19). */
  userAgent: string | null = null,
): Promise<{ report: CallReportRow; created: boolean; replaced: CallReportRow[] }> {
  assertOwnCompany(principal, body.company);
  assertOwnUsername(principal, body.guest_username);
  assertOwnCallId(principal, body.call_id, 'call_id');
  const details = await loadCompany(body.company);
  // Side by side: each is a round trip of its own, and none needs another's answer.
  const [, company] = await settledInOrder([
    assertCallAdmitted(db, details, principal.guestId, now),
    db
      .selectFrom('companies')
      .select(['id', 'monthly_call_quota'])
      .where('id', '=', body.company)
      .executeTakeFirstOrThrow(),
    assertCategoryOf(db, body.company, body.category_id),
  ] as const);
  assertAssignmentGroupOf(details, body.assignmentGroup);
  assertRecordingChoiceOf(details, body.recording);
  // Only a quota needs counting; without one, a company's calls need not queue for its row.
  const added =
    company.monthly_call_quota === null
      ? await insertNewReport(db, principal, body, details, 'ok', userAgent)
      : await db.transaction().execute(async (trx) => {
          // Serialises the count per company, so two calls cannot both take the last one.
          const { monthly_call_quota: quota } = await trx
            .selectFrom('companies')
            .select('monthly_call_quota')
            .where('id', '=', company.id)
            .forUpdate()
            .executeTakeFirstOrThrow();
          const spent = quota !== null && (await callsThisMonth(trx, company.id)).used >= quota;
          return insertNewReport(
            trx,
            principal,
            body,
            details,
            spent ? 'outOfQuota' : 'ok',
            userAgent,
          );
        });
  if (added) {
    const replaced = added.status === 'ok' ? await endOtherLiveCalls(db, added) : [];
    return { report: added, created: true, replaced };
  }
  const existing = await requireCall(db, body.call_id);
  assertMayTouch(principal, existing);
  return { report: existing, created: false, replaced: [] };
}

/**
 * One live call per guest: a newer call ends the guest's older ones (as a newer chat session
 * replaces an older, spec §9), so one guest can never hold several places in the agents' queue.
 * Answers the calls it ended, whose rooms the caller closes. One statement: finding the live
 * calls and ending them cost a round trip (and an update) each before (docs/performance.md).
 */
async function endOtherLiveCalls(
  db: Kysely<Database>,
  call: CallReportRow,
): Promise<CallReportRow[]> {
  return endReports(db, 'server', (where) =>
    where
      .where('guest_id', '=', call.guest_id)
      .where('id', '<>', call.id)
      .where('status', '=', 'ok'),
  );
}

/** The live reports `choose` narrows the update to: the ones {@link endReports} ends. */
type ChooseReports = (
  update: UpdateQueryBuilder<Database, 'call_reports', 'call_reports', UpdateResult>,
) => UpdateQueryBuilder<Database, 'call_reports', 'call_reports', UpdateResult>;

/**
 * Ends the reports `choose` picks that have not ended already, and answers them: `completed`
 * when an agent had claimed one, `abandoned` when none had. One statement, so a claim and an end
 * that cross each other agree on the outcome. `endedBy` is who ended them (the first to end a
 * report, for reports).
 */
async function endReports(
  db: Kysely<Database>,
  endedBy: CallEndedBy,
  choose: ChooseReports,
): Promise<CallReportRow[]> {
  return choose(
    db
      .updateTable('call_reports')
      .set((eb) => ({
        ended_at: sql<Date>`now()`,
        ended_by: endedBy,
        end_reason: eb
          .case()
          .when('agent_id', 'is', null)
          .then(sql.lit<CallEndReason>('abandoned'))
          .else(sql.lit<CallEndReason>('completed'))
          .end(),
      }))
      .where('ended_at', 'is', null),
  )
    .returningAll()
    .execute();
}

/** Ends the report unless it has ended already, and answers it then (see {@link endReports}). */
export async function endReport(
  db: Kysely<Database>,
  reportId: number,
  endedBy: CallEndedBy,
): Promise<CallReportRow | undefined> {
  const [ended] = await endReports(db, endedBy, (update) => update.where('id', '=', reportId));
  return ended;
}

/**
 * `call-report/hold-call` (spec §7): the conversation moves from the current call to a new one
 * (another agent or category), and the current call ends. The new call waits unclaimed in the
 * body's category, else the one the agent transferred it to, else the current one's. It joins
 * the chain of its origin, so reports show one conversation; asking again for the same move
 * answers the same report.
 */
export async function holdCall(
  db: Kysely<Database>,
  principal: Principal,
  body: HoldCallBody,
  loadCompany: (id: number) => Promise<CompanyDetails>,
): Promise<CallReportRow> {
  // Before the transaction: a cache miss would take a second pool connection while it holds one.
  // The principal's company is the origin's: requireReport lets staff touch only their company's
  // calls, and a guest's calls are all its company's.
  const company = await loadCompany(principal.companyId);
  return db.transaction().execute(async (trx) => {
    const origin = await requireReport(trx, principal, body.origin_call_id);
    if (origin.origin_call_id !== origin.call_id) {
      throw new InvalidInputError(
        'not_an_origin',
        `Call ${origin.call_id} continues ${origin.origin_call_id}.`,
        {
          origin_call_id: `must be the first call of the chain, ${origin.origin_call_id}`,
        },
      );
    }
    const current = await requireReport(trx, principal, body.current_call_id);
    if (current.origin_call_id !== origin.call_id) {
      throw new InvalidInputError(
        'not_in_chain',
        `Call ${current.call_id} is not part of ${origin.call_id}.`,
        {
          current_call_id: 'must belong to the chain of origin_call_id',
        },
      );
    }
    // The chain stays the guest's: the new call id starts with the same username.
    if (parseCallId(body.new_call_id)?.username !== origin.guest_username) {
      throw new InvalidInputError(
        'not_in_chain',
        "The new call id must start with the guest's username.",
        {
          new_call_id: `must start with ${origin.guest_username}--`,
        },
      );
    }
    if (body.guest_username !== undefined && body.guest_username !== origin.guest_username) {
      throw new InvalidInputError('not_in_chain', 'guest_username is not the guest of this call.', {
        guest_username: 'must be the guest of the call',
      });
    }
    await assertCategoryOf(trx, origin.company_id, body.category_id);
    const existing = await findReport(trx, body.new_call_id);
    if (existing) {
      if (
        existing.origin_call_id === origin.call_id &&
        existing.previous_call_id === current.call_id
      )
        return existing;
      throw new ConflictError('call_id_taken', `Call ${body.new_call_id} is already reported.`, {
        new_call_id: 'is already in use',
      });
    }
    // SECURITY: only a live call that was let through goes on; a refused (blocked, out of quota)
    // or ended call cannot be revived under a new id.
    if (current.status !== 'ok' || current.ended_at !== null) {
      throw new ConflictError('call_not_live', `Call ${current.call_id} is not a live call.`, {
        current_call_id: 'must be a live call that was let through',
      });
    }
    // The conversation goes on in the new call: the server, not a side, ended this leg.
    await endReport(trx, current.id, 'server');
    return trx
      .insertInto('call_reports')
      .values({
        company_id: origin.company_id,
        guest_id: origin.guest_id,
        call_id: body.new_call_id,
        origin_call_id: origin.call_id,
        previous_call_id: current.call_id,
        category_id: body.category_id ?? current.transfer_to_category_id ?? current.category_id,
        // The guest is still who it said it was: the conversation keeps its group (decision 0019).
        assignment_group: current.assignment_group,
        source: current.source,
        webview: current.webview,
        // The guest's choice holds for the whole conversation (decision 0030).
        recording_declined: current.recording_declined,
        // A new leg is a new call: its method follows the company's setting now and that choice.
        call_method: callMethodOf(company, isRecorded(company, current)),
        status: 'ok',
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/** `call-report/update` (spec §7): the fields the body names, nothing else. */
export async function updateCallReport(
  db: Kysely<Database>,
  principal: Principal,
  callId: string,
  changes: CallReportChanges,
): Promise<CallReport> {
  return db.transaction().execute(async (trx) => {
    const report = await requireReport(trx, principal, callId);
    await assertCategoryOf(trx, report.company_id, changes.category_id);
    const updated = await trx
      .updateTable('call_reports')
      .set(changes)
      .where('id', '=', report.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toCallReport({ ...updated, guest_username: report.guest_username });
  });
}

/**
 * `call-report/update-timestamp` (spec §7): stamps the server's clock. The call is initiated once
 * (the first stamp stays); the guest may leave and come back, so its last exit wins. One
 * statement stamps a report the caller may touch; only when it stamps nothing is it asked why.
 */
export async function stampCallReport(
  db: Kysely<Database>,
  principal: Principal,
  callId: string,
  flags: { callInitiated: boolean; guestExit: boolean },
): Promise<CallReport> {
  const stamped = await db
    .updateTable('call_reports')
    .from('guests')
    .set((eb) => ({
      ...(flags.callInitiated
        ? {
            call_initiated_at: eb.fn.coalesce('call_reports.call_initiated_at', sql<Date>`now()`),
          }
        : {}),
      ...(flags.guestExit ? { guest_exit_at: sql<Date>`now()` } : {}),
    }))
    .whereRef('guests.id', '=', 'call_reports.guest_id')
    .where('call_reports.call_id', '=', callId)
    .where(
      principal.role === 'guest'
        ? sql.ref('call_reports.guest_id')
        : sql.ref('call_reports.company_id'),
      '=',
      principal.role === 'guest' ? principal.guestId : principal.companyId,
    )
    .returningAll('call_reports')
    .returning('guests.username as guest_username')
    .executeTakeFirst();
  if (stamped) return toCallReport(stamped);
  // Answers 404 or 403, whichever it is.
  await requireReport(db, principal, callId);
  throw new Error(`Call ${callId} could not be stamped.`);
}
