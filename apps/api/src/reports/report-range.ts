import { sql, type Kysely } from 'kysely';
import { openingsBetween } from '@frontdesk/protocol';
import type { Database } from '../db/schema.ts';
import { loadTimetable } from '../companies/schedule-repository.ts';

/** What every report of a company reads: which conversations, by the company's own clock. */
export type ReportScope = {
  companyId: number;
  timeZone: string;
  /** Conversations that began at or after `from` and before `to`. */
  from: Date;
  to: Date;
  categoryId: number | undefined;
  agentId: number | undefined;
  /**
   * `businessHours`: the company's openings over the range as a PostgreSQL multirange literal;
   * `undefined` when every hour counts (asked so, or the company keeps no timetable).
   */
  openings: string | undefined;
};

export type ReportFilter = {
  from: string;
  to: string;
  categoryId?: number | undefined;
  agentId?: number | undefined;
  businessHours?: boolean | undefined;
};

const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/**
 * The range in instants: a day is its midnight in the company's time zone (UTC for a company
 * without a timetable), `to` as a day takes in that whole day.
 */
async function rangeOf(db: Kysely<Database>, companyId: number, filter: ReportFilter) {
  const instant = (value: string, dayAfter: boolean) =>
    isDay(value)
      ? sql<Date>`((cast(${value} as date) + ${sql.lit(dayAfter ? 1 : 0)})::timestamp at time zone zone.name)`
      : sql<Date>`cast(${value} as timestamptz)`;
  const { rows } = await sql<{ time_zone: string; from: Date; to: Date }>`
    select zone.name as time_zone,
      ${instant(filter.from, false)} as "from",
      ${instant(filter.to, true)} as "to"
    from (select coalesce(
      (select time_zone from schedules where company_id = ${companyId}), 'UTC') as name) zone
  `.execute(db);
  const range = rows[0];
  if (!range) throw new Error('the range query answered no row');
  return range;
}

/**
 * The scope of a report of `companyId`: its range as instants, its filters, and with
 * `businessHours` the openings the company's timetable (as it stands now) gives that range, by
 * the rules that open the door to guests (`openingsBetween`).
 */
export async function reportScope(
  db: Kysely<Database>,
  companyId: number,
  filter: ReportFilter,
): Promise<ReportScope> {
  const range = await rangeOf(db, companyId, filter);
  let openings: string | undefined;
  if (filter.businessHours) {
    const days = Math.ceil((range.to.getTime() - range.from.getTime()) / 86_400_000) + 2;
    const timetable = await loadTimetable(db, companyId, range.to, {
      daysBack: days,
      daysAhead: 1,
    });
    if (timetable) {
      const ranges = openingsBetween(timetable, range.from, range.to).map(
        ({ opens, closes }) => `[${opens.toISOString()},${closes.toISOString()})`,
      );
      openings = `{${ranges.join(',')}}`;
    }
  }
  return {
    companyId,
    timeZone: range.time_zone,
    from: range.from,
    to: range.to,
    categoryId: filter.categoryId,
    agentId: filter.agentId,
    openings,
  };
}
