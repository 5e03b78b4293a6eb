import {
  localDate,
  type OpeningHours,
  type Schedule,
  type ScheduleException,
} from '@frontdesk/protocol';

/** The timetable by weekday (1 = Monday … 7 = Sunday), each day's hours in order. */
export function hoursByWeekday(hours: readonly OpeningHours[]): Map<number, OpeningHours[]> {
  const days = new Map<number, OpeningHours[]>();
  for (let weekday = 1; weekday <= 7; weekday++) {
    days.set(
      weekday,
      hours.filter((h) => h.weekday === weekday).sort((a, b) => a.opens.localeCompare(b.opens)),
    );
  }
  return days;
}

/**
 * The dates from the company's today on that keep other hours than their weekday's, in order
 * (the API also sends yesterday's, whose night may still run, which is no news to the guest).
 */
export function upcomingExceptions(schedule: Schedule, now: Date): ScheduleException[] {
  const today = localDate(now, schedule.timeZone);
  return schedule.exceptions
    .filter((exception) => exception.date >= today)
    .sort((a, b) => a.date.localeCompare(b.date));
}
