import type { OpeningHours, Schedule } from '@frontdesk/protocol';

/** The wall-clock parts of `instant` in `timeZone`. */
function zonedParts(instant: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    weekday: 'short',
  }).formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  const weekdays = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    hour: Number(get('hour')),
    minute: Number(get('minute')),
    weekday: weekdays.indexOf(get('weekday')) + 1,
  };
}

/** The instant at which the clock in `timeZone` reads the given date and time. */
function instantOfZonedTime(
  date: { year: number; month: number; day: number },
  time: string,
  timeZone: string,
): Date {
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  const asUtc = Date.UTC(date.year, date.month - 1, date.day, hour, minute);
  // The zone's offset at that moment; a second pass settles times near a DST change.
  let guess = asUtc;
  for (let pass = 0; pass < 2; pass++) {
    const p = zonedParts(new Date(guess), timeZone);
    const shownAsUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
    guess += asUtc - shownAsUtc;
  }
  return new Date(guess);
}

/**
 * When the company next opens, as an instant, looking a week ahead from `now`; `null` when its
 * timetable has no hours at all.
 */
export function nextOpening(schedule: Schedule, now: Date): Date | null {
  for (let dayOffset = 0; dayOffset <= 7; dayOffset++) {
    const day = zonedParts(new Date(now.getTime() + dayOffset * 86_400_000), schedule.timeZone);
    const hours = schedule.hours
      .filter((h) => h.weekday === day.weekday)
      .sort((a, b) => a.opens.localeCompare(b.opens));
    for (const h of hours) {
      const opens = instantOfZonedTime(day, h.opens, schedule.timeZone);
      if (opens > now) return opens;
    }
  }
  return null;
}

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
