import type { Kysely } from 'kysely';
import type { CompanySchedule, TimetableData } from '@frontdesk/protocol';
import { changeCompany, type CompanyChangeOptions } from '../audit/company-changes.ts';
import type { Database } from '../db/schema.ts';
import { requireCompany } from './company-repository.ts';
import {
  EDITABLE_EXCEPTIONS,
  loadTimetable,
  removeTimetable,
  replaceTimetable,
} from './schedule-repository.ts';

/**
 * The company's timetable as its admins edit it, with the version it was read at (one snapshot,
 * so an edit sent back with that version never overwrites a change it did not see).
 */
export async function loadCompanySchedule(
  db: Kysely<Database>,
  companyId: number,
  now: Date,
): Promise<CompanySchedule> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const { version } = await requireCompany(trx, companyId);
      return { version, timetable: await loadTimetable(trx, companyId, now, EDITABLE_EXCEPTIONS) };
    });
}

const TIMETABLE_PARTS = ['timeZone', 'hours', 'exceptions'] as const;

/** The parts of the timetable an edit changed, before and after, as the audit log keeps them. */
function changedParts(before: TimetableData | null, after: TimetableData | null) {
  if (!before || !after) return { before, after };
  const changed = TIMETABLE_PARTS.filter(
    (part) => JSON.stringify(before[part]) !== JSON.stringify(after[part]),
  );
  const pick = (timetable: TimetableData) =>
    Object.fromEntries(changed.map((part) => [part, timetable[part]]));
  return { before: pick(before), after: pick(after) };
}

const target = (companyId: number) => `schedule of company ${companyId}`;

/** Puts `timetable` in place of the company's, audited (`schedule.replace`). */
export async function replaceSchedule(
  db: Kysely<Database>,
  change: CompanyChangeOptions,
  timetable: TimetableData,
  now: Date,
): Promise<CompanySchedule> {
  const { companyId } = change;
  const { result, version } = await changeCompany(db, change, async (trx) => {
    const before = await loadTimetable(trx, companyId, now, EDITABLE_EXCEPTIONS);
    await replaceTimetable(trx, companyId, timetable);
    // Read back: the answer lists hours and dates in order, as a later GET does.
    const after = await loadTimetable(trx, companyId, now, EDITABLE_EXCEPTIONS);
    return {
      action: 'schedule.replace',
      target: target(companyId),
      ...changedParts(before, after),
      result: after,
    };
  });
  return { version, timetable: result };
}

/** Removes the company's timetable, audited (`schedule.remove`): it is then always open. */
export async function removeSchedule(
  db: Kysely<Database>,
  change: CompanyChangeOptions,
  now: Date,
): Promise<CompanySchedule> {
  const { companyId } = change;
  const { version } = await changeCompany(db, change, async (trx) => {
    const before = await loadTimetable(trx, companyId, now, EDITABLE_EXCEPTIONS);
    await removeTimetable(trx, companyId);
    return {
      action: 'schedule.remove',
      target: target(companyId),
      before,
      after: null,
      result: null,
    };
  });
  return { version, timetable: null };
}
