import { sql, type Kysely } from 'kysely';
import {
  addDays,
  localDate,
  UPCOMING_EXCEPTION_DAYS,
  type ScheduleException,
  type TimetableData,
} from '@frontdesk/protocol';
import type { Database } from '../db/schema.ts';

/** Which exceptions a read of a timetable brings: days before and after today, in its zone. */
export type ExceptionWindow = { daysBack: number; daysAhead?: number };

/**
 * What guests get: from yesterday (whose night may still run) to
 * {@link UPCOMING_EXCEPTION_DAYS} ahead.
 */
export const UPCOMING_EXCEPTIONS: ExceptionWindow = {
  daysBack: 1,
  daysAhead: UPCOMING_EXCEPTION_DAYS,
};

/** What admins edit: every exception ahead, and those of the past year. */
export const EDITABLE_EXCEPTIONS: ExceptionWindow = { daysBack: 366 };

/** A `YYYY-MM-DD` as a PostgreSQL `date`, to compare with one. */
const calendarDate = (date: string) => sql<Date>`cast(${date} as date)`;

/** PostgreSQL `time` reads as `HH:MM:SS`; the timetable speaks in minutes. */
const clockTime = (time: string): string => time.slice(0, 5);

/**
 * The company's timetable with the exceptions of `window` around `now`'s date in its zone, in
 * order (weekday and opening; date and opening); `null` when it keeps none (always open).
 */
export async function loadTimetable(
  db: Kysely<Database>,
  companyId: number,
  now: Date,
  window: ExceptionWindow,
): Promise<TimetableData | null> {
  const schedule = await db
    .selectFrom('schedules')
    .select('time_zone')
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  if (!schedule) return null;
  const today = localDate(now, schedule.time_zone);
  const { daysAhead } = window;
  const [hours, exceptionRows] = await Promise.all([
    db
      .selectFrom('schedule_hours')
      .select(['weekday', 'opens', 'closes'])
      .where('company_id', '=', companyId)
      .orderBy('weekday')
      .orderBy('opens')
      .execute(),
    db
      .selectFrom('schedule_exceptions as e')
      .leftJoin('schedule_exception_hours as h', 'h.exception_id', 'e.id')
      // A `date` would come back as a JavaScript Date at the server's midnight: read the text.
      .select([
        sql<string>`to_char(e.date, 'YYYY-MM-DD')`.as('date'),
        'e.label',
        'h.opens',
        'h.closes',
      ])
      .where('e.company_id', '=', companyId)
      .where('e.date', '>=', calendarDate(addDays(today, -window.daysBack)))
      .$if(daysAhead !== undefined, (query) =>
        query.where('e.date', '<=', calendarDate(addDays(today, daysAhead ?? 0))),
      )
      .orderBy('e.date')
      .orderBy('h.opens')
      .execute(),
  ]);
  const exceptions: ScheduleException[] = [];
  for (const row of exceptionRows) {
    let exception = exceptions.at(-1);
    if (exception?.date !== row.date) {
      exception = { date: row.date, label: row.label, hours: [] };
      exceptions.push(exception);
    }
    if (row.opens !== null && row.closes !== null) {
      exception.hours.push({ opens: clockTime(row.opens), closes: clockTime(row.closes) });
    }
  }
  return {
    timeZone: schedule.time_zone,
    hours: hours.map((h) => ({
      weekday: h.weekday,
      opens: clockTime(h.opens),
      closes: clockTime(h.closes),
    })),
    exceptions,
  };
}

/** Puts `timetable` in place of whatever the company kept (run it in the edit's transaction). */
export async function replaceTimetable(
  db: Kysely<Database>,
  companyId: number,
  timetable: TimetableData,
): Promise<void> {
  await db
    .insertInto('schedules')
    .values({ company_id: companyId, time_zone: timetable.timeZone })
    .onConflict((oc) => oc.column('company_id').doUpdateSet({ time_zone: timetable.timeZone }))
    .execute();
  await db.deleteFrom('schedule_hours').where('company_id', '=', companyId).execute();
  // Their openings go with them (on delete cascade).
  await db.deleteFrom('schedule_exceptions').where('company_id', '=', companyId).execute();
  if (timetable.hours.length > 0) {
    await db
      .insertInto('schedule_hours')
      .values(timetable.hours.map((h) => ({ company_id: companyId, ...h })))
      .execute();
  }
  if (timetable.exceptions.length === 0) return;
  const inserted = await db
    .insertInto('schedule_exceptions')
    .values(timetable.exceptions.map(({ date, label }) => ({ company_id: companyId, date, label })))
    .returning(['id', sql<string>`to_char(date, 'YYYY-MM-DD')`.as('date')])
    .execute();
  const idOf = new Map(inserted.map((row) => [row.date, row.id]));
  const openings = timetable.exceptions.flatMap(({ date, hours }) =>
    hours.map((h) => ({ exception_id: idOf.get(date) ?? 0, ...h })),
  );
  if (openings.length > 0) {
    await db.insertInto('schedule_exception_hours').values(openings).execute();
  }
}

/** Removes the company's timetable, its exceptions with it: the company is then always open. */
export async function removeTimetable(db: Kysely<Database>, companyId: number): Promise<void> {
  await db.deleteFrom('schedules').where('company_id', '=', companyId).execute();
}
