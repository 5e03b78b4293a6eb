import type { Kysely } from 'kysely';
import type { CallReportRow, Database } from '../db/schema.ts';
import { ConflictError } from '../domain-errors.ts';

/**
 * The moments of a call its report has no column for (table `call_events`, issue 17): whom
 * round robin offered it to, its holds and resumes, and the transfers its agent asked for.
 * Reports read them to tell a call's timeline, hold time, transfers and missed offers.
 */

/** One turn of round robin: the waiting call was offered to `staffId` from `at` to `until`. */
export interface OfferTurn {
  companyId: number;
  callReportId: number;
  staffId: number;
  at: Date;
  until: Date;
}

/**
 * Records the turns the waiting-call list showed. Every console asks for that list, again and
 * again, so each turn is recorded once (the partial unique index `call_events_one_offer_per_turn`)
 * and the whole page in one statement.
 */
export async function recordOffers(
  db: Kysely<Database>,
  turns: readonly OfferTurn[],
): Promise<void> {
  if (turns.length === 0) return;
  await db
    .insertInto('call_events')
    .values(
      turns.map((turn) => ({
        company_id: turn.companyId,
        call_report_id: turn.callReportId,
        kind: 'offered' as const,
        staff_id: turn.staffId,
        at: turn.at,
        until: turn.until,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['call_report_id', 'staff_id', 'at']).where('kind', '=', 'offered').doNothing(),
    )
    .execute();
}

/** Where an agent asked to hand the guest: another agent or a category of the company. */
export type TransferTarget = { toStaffId: number } | { toCategoryId: number };

/** The agent `staffId` asked to hand the guest of `call` to `target`. */
export async function recordTransferRequested(
  db: Kysely<Database>,
  call: Pick<CallReportRow, 'id' | 'company_id'>,
  staffId: number,
  target: TransferTarget,
): Promise<void> {
  await db
    .insertInto('call_events')
    .values({
      company_id: call.company_id,
      call_report_id: call.id,
      kind: 'transfer_requested',
      staff_id: staffId,
      details: target,
    })
    .execute();
}

/**
 * The agent who took `call` put it on hold (`onHold`) or took it back. Only a change is
 * recorded: a repeated request (a retry, a second tab) adds nothing, and a resume without a
 * hold is no moment of the call. 409 `call_ended` once the call is over.
 */
export async function recordHold(
  db: Kysely<Database>,
  call: Pick<CallReportRow, 'id' | 'company_id' | 'call_id'>,
  staffId: number,
  onHold: boolean,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Locks the live call, so two requests at once cannot both record the same change.
    const live = await trx
      .selectFrom('call_reports')
      .select('id')
      .where('id', '=', call.id)
      .where('status', '=', 'ok')
      .where('ended_at', 'is', null)
      .where('agent_id', '=', staffId)
      .forUpdate()
      .executeTakeFirst();
    if (!live) throw new ConflictError('call_ended', `Call ${call.call_id} has ended.`);
    if ((await isOnHold(trx, call.id)) === onHold) return;
    await trx
      .insertInto('call_events')
      .values({
        company_id: call.company_id,
        call_report_id: call.id,
        kind: onHold ? 'held' : 'resumed',
        staff_id: staffId,
      })
      .execute();
  });
}

/**
 * Whether the call's agent last put it on hold (its newest hold or resume is a hold): what a
 * console that reloads must show again (decision 0027), as its guest still shows the hold.
 */
export async function isOnHold(db: Kysely<Database>, callReportId: number): Promise<boolean> {
  const last = await db
    .selectFrom('call_events')
    .select('kind')
    .where('call_report_id', '=', callReportId)
    .where('kind', 'in', ['held', 'resumed'])
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return last?.kind === 'held';
}
