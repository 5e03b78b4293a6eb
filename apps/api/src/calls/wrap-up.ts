import type { Kysely } from 'kysely';
import type {
  CallWrapUp,
  CallWrapUpBody,
  OutcomeCode,
  OutcomeCodesBody,
} from '@frontdesk/protocol';
import { changeCompany, type CompanyChangeOptions } from '../audit/company-changes.ts';
import type { CallReportRow, Database } from '../db/schema.ts';
import { InvalidInputError } from '../domain-errors.ts';

/** The company's outcome codes, in the order its agents see them (issue 19 item 3). */
export async function listOutcomeCodes(
  db: Kysely<Database>,
  companyId: number,
): Promise<OutcomeCode[]> {
  return db
    .selectFrom('call_outcome_codes')
    .select(['code', 'label'])
    .where('company_id', '=', companyId)
    .orderBy('position')
    .execute();
}

/** `PUT /company/:id/outcome-codes`: the whole list replaced, audited as `outcomeCodes.set`. */
export async function setOutcomeCodes(
  db: Kysely<Database>,
  options: CompanyChangeOptions,
  body: OutcomeCodesBody,
): Promise<{ result: OutcomeCode[]; version: number }> {
  const { companyId } = options;
  return changeCompany(db, options, async (trx) => {
    const before = await listOutcomeCodes(trx, companyId);
    await trx.deleteFrom('call_outcome_codes').where('company_id', '=', companyId).execute();
    if (body.codes.length > 0) {
      await trx
        .insertInto('call_outcome_codes')
        .values(
          body.codes.map((entry, position) => ({ company_id: companyId, ...entry, position })),
        )
        .execute();
    }
    return {
      action: 'outcomeCodes.set',
      target: 'outcome codes',
      before,
      after: body.codes,
      result: body.codes,
    };
  });
}

type WrapUpRow = Pick<
  CallReportRow,
  'outcome_code' | 'follow_up' | 'follow_up_note' | 'wrapped_up_at'
>;

export const toWrapUp = (row: WrapUpRow): CallWrapUp | null =>
  row.wrapped_up_at
    ? {
        outcomeCode: row.outcome_code,
        followUp: row.follow_up,
        followUpNote: row.follow_up_note,
        wrappedUpAt: row.wrapped_up_at.toISOString(),
      }
    : null;

/**
 * `PUT /calls/:callId/wrap-up` (the caller checked it is the call's agent): the outcome must be
 * one of the company's codes — 400 naming `outcomeCode` otherwise, and when the company keeps
 * codes an outcome is required.
 */
export async function wrapUpCall(
  db: Kysely<Database>,
  call: CallReportRow,
  body: CallWrapUpBody,
): Promise<CallWrapUp> {
  const codes = await listOutcomeCodes(db, call.company_id);
  const known = codes.some((entry) => entry.code === body.outcomeCode);
  if (body.outcomeCode === null ? codes.length > 0 : !known) {
    throw new InvalidInputError(
      'unknown_outcome_code',
      body.outcomeCode === null
        ? 'Choose one of the company’s outcomes.'
        : `The company keeps no outcome "${body.outcomeCode}".`,
      { outcomeCode: 'must be one of the company’s outcome codes' },
    );
  }
  const row = await db
    .updateTable('call_reports')
    .set({
      outcome_code: body.outcomeCode,
      follow_up: body.followUp,
      follow_up_note: body.followUpNote === '' ? null : body.followUpNote,
      wrapped_up_at: new Date(),
    })
    .where('id', '=', call.id)
    .returning(['outcome_code', 'follow_up', 'follow_up_note', 'wrapped_up_at'])
    .executeTakeFirstOrThrow();
  const wrapUp = toWrapUp(row);
  if (!wrapUp) throw new Error('a saved wrap-up has its time');
  return wrapUp;
}
