import { set, type FieldErrors, type Resolver } from 'react-hook-form';
import {
  addDays,
  isOpenAt,
  localDate,
  timetableBodySchema,
  UPCOMING_EXCEPTION_DAYS,
  type OpeningInterval,
  type Schedule,
  type TimetableData,
} from '@frontdesk/protocol';
import { t, type MessageKey } from '../../../i18n/messages.ts';
import { errorAt } from '../PathInput.tsx';
import type { ChangeLine } from '../SaveSummary.tsx';

/** A date that keeps other hours, as the form holds it: an empty label is none. */
export type ExceptionDraft = { date: string; label: string; hours: OpeningInterval[] };

/**
 * The timetable as the editor's form holds it: the body of `PUT /company/:id/schedule` in the
 * same order, so every field the API names (`hours.3.opens`, `exceptions.0.date`) is one of the
 * form's own. The week's openings stay one list; the editor shows them by weekday.
 */
export type ScheduleValues = {
  timeZone: string;
  hours: (OpeningInterval & { weekday: number })[];
  exceptions: ExceptionDraft[];
};

/** The ISO weekdays in the order the editor lists them (1 = Monday … 7 = Sunday). */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

export const weekdayName = (weekday: number) => t(`scheduleWeekday_${weekday}` as MessageKey);

/** The draft of a stored timetable. */
export function toDraft(timetable: TimetableData): ScheduleValues {
  return {
    timeZone: timetable.timeZone,
    hours: timetable.hours.map((h) => ({ ...h })),
    exceptions: timetable.exceptions.map((e) => ({
      date: e.date,
      label: e.label ?? '',
      hours: e.hours.map((h) => ({ ...h })),
    })),
  };
}

/**
 * A first timetable for a company that has none: the admin's own time zone, Monday to Friday
 * 09:00–17:00, to be changed before saving.
 */
export function newTimetable(): TimetableData {
  return {
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    hours: WEEKDAYS.filter((day) => day <= 5).map((weekday) => ({
      weekday,
      opens: '09:00',
      closes: '17:00',
    })),
    exceptions: [],
  };
}

/** The draft as the API takes it: labels trimmed, an empty one none. */
export function toBody(values: ScheduleValues): TimetableData {
  return {
    timeZone: values.timeZone.trim(),
    hours: values.hours.map(({ weekday, opens, closes }) => ({ weekday, opens, closes })),
    exceptions: values.exceptions.map((e) => ({
      date: e.date,
      label: e.label.trim() === '' ? null : e.label.trim(),
      hours: e.hours.map(({ opens, closes }) => ({ opens, closes })),
    })),
  };
}

const OVERLAPS_WEEK = /^overlaps hours\.(\d+)/;
const OVERLAPS_DATE = /^overlaps exceptions\.(\d+)\.hours\.(\d+)/;
const DATE_TWICE = /^exceptions\.\d+ has this date too/;

/**
 * A message of the timetable's schema or of the API as the admin reads it: the schema names the
 * other opening by its place in the body (`overlaps hours.1 (…)`), which the editor never shows,
 * so it is named by its day and hours instead.
 */
export function readableIssue(message: string, values: ScheduleValues): string {
  const week = OVERLAPS_WEEK.exec(message);
  const other = week ? values.hours[Number(week[1])] : undefined;
  if (other) {
    return t('scheduleOverlaps', {
      other: `${weekdayName(other.weekday)} ${formatInterval(other)}`,
    });
  }
  const day = OVERLAPS_DATE.exec(message);
  const interval = day ? values.exceptions[Number(day[1])]?.hours[Number(day[2])] : undefined;
  if (interval) return t('scheduleOverlaps', { other: formatInterval(interval) });
  if (DATE_TWICE.test(message)) return t('scheduleDateTwice');
  return message;
}

/**
 * Checks the draft with the API's own schema (`timetableBodySchema`), each message at the field
 * it names; a valid draft comes out as the body to send.
 */
export const scheduleResolver: Resolver<ScheduleValues, unknown, TimetableData> = (values) => {
  const result = timetableBodySchema.safeParse(toBody(values));
  if (result.success) return { values: result.data, errors: {} };
  const errors: FieldErrors<ScheduleValues> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.join('.') || 'root';
    // The first problem of a field is the one to fix first.
    if (issue.path.length > 0 && errorAt(errors, path)) continue;
    set(errors, path, { type: issue.code, message: readableIssue(issue.message, values) });
  }
  return { values: {}, errors };
};

/** `08:00–12:00`, a night `22:00–02:00`. */
export const formatInterval = ({ opens, closes }: OpeningInterval) => `${opens}–${closes}`;

/**
 * How an opening ends, when it does not end on its own day: at midnight, the whole day, or the
 * next morning (a `closes` at or before its `opens`, as the API reads it).
 */
export function overnightNote({ opens, closes }: OpeningInterval): string | null {
  if (!/^\d\d:\d\d$/.test(opens) || !/^\d\d:\d\d$/.test(closes) || closes > opens) return null;
  if (closes === '00:00')
    return opens === '00:00' ? t('scheduleAllDay') : t('scheduleUntilMidnight');
  return t('scheduleUntilNextDay', { time: closes });
}

/**
 * The timetable as guests get it in `GET /company/:id` (`schedule`): the dates from yesterday
 * to {@link UPCOMING_EXCEPTION_DAYS} ahead, and whether it is open at `now`.
 */
export function publicSchedule(timetable: TimetableData, now: Date): Schedule {
  const today = localDate(now, timetable.timeZone);
  const first = addDays(today, -1);
  const last = addDays(today, UPCOMING_EXCEPTION_DAYS);
  return {
    ...timetable,
    exceptions: timetable.exceptions.filter((e) => e.date >= first && e.date <= last),
    openNow: isOpenAt(timetable, now),
  };
}

const describeDay = (hours: readonly OpeningInterval[]) =>
  hours.length === 0
    ? t('scheduleClosedAllDay')
    : [...hours]
        .sort((a, b) => a.opens.localeCompare(b.opens))
        .map(formatInterval)
        .join(', ');

const describeException = (e: TimetableData['exceptions'][number] | undefined) =>
  e ? `${describeDay(e.hours)}${e.label ? ` (${e.label})` : ''}` : t('scheduleNoException');

/**
 * What a save changed, in words: the time zone, each weekday whose hours differ and each date
 * added, changed or removed; `null` stands for no timetable (always open).
 */
export function describeScheduleChanges(
  before: TimetableData | null,
  after: TimetableData | null,
): ChangeLine[] {
  if (!before || !after) {
    const describe = (timetable: TimetableData | null) =>
      timetable ? t('scheduleKept', { zone: timetable.timeZone }) : t('scheduleAlwaysOpen');
    return [
      {
        key: 'timetable',
        label: t('scheduleTitle'),
        before: describe(before),
        after: describe(after),
      },
    ];
  }
  const lines: ChangeLine[] = [];
  if (before.timeZone !== after.timeZone) {
    lines.push({
      key: 'timeZone',
      label: t('scheduleTimeZone'),
      before: before.timeZone,
      after: after.timeZone,
    });
  }
  for (const weekday of WEEKDAYS) {
    const was = describeDay(before.hours.filter((h) => h.weekday === weekday));
    const is = describeDay(after.hours.filter((h) => h.weekday === weekday));
    if (was !== is)
      lines.push({ key: `day-${weekday}`, label: weekdayName(weekday), before: was, after: is });
  }
  const dates = [...new Set([...before.exceptions, ...after.exceptions].map((e) => e.date))].sort();
  for (const date of dates) {
    const was = describeException(before.exceptions.find((e) => e.date === date));
    const is = describeException(after.exceptions.find((e) => e.date === date));
    if (was !== is) lines.push({ key: `date-${date}`, label: date, before: was, after: is });
  }
  return lines;
}
