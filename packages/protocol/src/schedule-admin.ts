import { z } from 'zod';
import {
  MAX_OPENINGS_A_DAY,
  openingHoursSchema,
  scheduleExceptionSchema,
  timeZoneSchema,
  type OpeningInterval,
} from './company.ts';

/** How many dates a timetable may keep apart from its week (a year's holidays and then some). */
export const MAX_SCHEDULE_EXCEPTIONS = 400;

/**
 * A company's whole timetable as its admins edit it (issue 16): the time zone, the week's
 * openings and the dates that differ. `GET /company/:id/schedule` answers the exceptions up to a
 * year past; `PUT` replaces all of it.
 */
export const timetableSchema = z.strictObject({
  timeZone: timeZoneSchema,
  hours: z.array(openingHoursSchema).max(7 * MAX_OPENINGS_A_DAY),
  exceptions: z.array(scheduleExceptionSchema).max(MAX_SCHEDULE_EXCEPTIONS),
});
export type TimetableData = z.infer<typeof timetableSchema>;

const DAY_MINUTES = 24 * 60;
const WEEKDAY_NAMES = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
];

const minutesOf = (time: string): number => {
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  return hour * 60 + minute;
};

/** An opening as minutes from a start of `period` minutes that wraps around. */
type Span = { start: number; length: number };

function spanOf({ opens, closes }: OpeningInterval, dayIndex: number): Span {
  const start = minutesOf(opens);
  // A closing at or before the opening runs through midnight: 22:00–02:00 is four hours.
  const length = (minutesOf(closes) - start + DAY_MINUTES) % DAY_MINUTES || DAY_MINUTES;
  return { start: dayIndex * DAY_MINUTES + start, length };
}

/**
 * Whether two spans share a minute on a circle of `period` minutes. The week is a circle (Sunday
 * night runs into Monday); one date's openings, which start within the day and last at most a
 * day, are compared on a circle of two days, where nothing wraps back onto them.
 */
function overlap(a: Span, b: Span, period: number): boolean {
  return (
    (b.start - a.start + period) % period < a.length ||
    (a.start - b.start + period) % period < b.length
  );
}

/**
 * For each opening that overlaps an earlier one of the list, its index and the earlier one's.
 */
function overlaps(spans: readonly Span[], period: number): [later: number, earlier: number][] {
  const found: [number, number][] = [];
  spans.forEach((span, later) => {
    const earlier = spans.findIndex(
      (other, index) => index < later && overlap(other, span, period),
    );
    if (earlier >= 0) found.push([later, earlier]);
  });
  return found;
}

const describeHours = (h: OpeningInterval & { weekday: number }) =>
  `${WEEKDAY_NAMES[h.weekday - 1] ?? ''} ${h.opens}–${h.closes}`;

/**
 * `PUT /company/:id/schedule`: a timetable whose openings do not overlap (a week's, counting the
 * nights that run into the next day; one date's among themselves) and whose dates are each
 * given once. Each refusal names the opening or date at fault, e.g. `hours.3.opens`.
 */
export const timetableBodySchema = timetableSchema.superRefine((timetable, context) => {
  const week = overlaps(
    timetable.hours.map((h) => spanOf(h, h.weekday - 1)),
    7 * DAY_MINUTES,
  );
  for (const [later, earlier] of week) {
    const other = timetable.hours[earlier];
    context.addIssue({
      code: 'custom',
      path: ['hours', later, 'opens'],
      message: `overlaps hours.${earlier}${other ? ` (${describeHours(other)})` : ''}`,
    });
  }
  const seen = new Map<string, number>();
  timetable.exceptions.forEach((exception, index) => {
    const first = seen.get(exception.date);
    if (first === undefined) seen.set(exception.date, index);
    else {
      context.addIssue({
        code: 'custom',
        path: ['exceptions', index, 'date'],
        message: `exceptions.${first} has this date too`,
      });
    }
    const day = overlaps(
      exception.hours.map((h) => spanOf(h, 0)),
      2 * DAY_MINUTES,
    );
    for (const [later, earlier] of day) {
      const other = exception.hours[earlier];
      context.addIssue({
        code: 'custom',
        path: ['exceptions', index, 'hours', later, 'opens'],
        message: `overlaps exceptions.${index}.hours.${earlier}${other ? ` (${other.opens}–${other.closes})` : ''}`,
      });
    }
  });
});

/**
 * `GET`, `PUT` and `DELETE /company/:id/schedule`: the timetable (`null`: none, always open)
 * and the company's version after it, which the response's ETag carries too and the next edit
 * sends as `If-Match`.
 */
export const companyScheduleSchema = z.object({
  version: z.number().int().positive(),
  timetable: timetableSchema.nullable(),
});
export type CompanySchedule = z.infer<typeof companyScheduleSchema>;
