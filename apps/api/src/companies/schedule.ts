import type { OpeningHours } from '@frontdesk/protocol';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** One formatter a zone: building one costs far more than using it, and every guest asks. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The ISO weekday (1 = Monday) and `HH:MM` wall-clock time of `instant` in `timeZone`. */
export function wallClock(instant: Date, timeZone: string): { weekday: number; time: string } {
  const parts = formatterFor(timeZone).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  return {
    weekday: WEEKDAYS.indexOf(part('weekday')) + 1,
    time: `${part('hour')}:${part('minute')}`,
  };
}

/**
 * Whether a weekly timetable is open at `instant` (spec §2 stage "schedule"). Hours run from
 * `opens` inclusive to `closes` exclusive on their own weekday; daylight saving follows the zone.
 */
export function isOpenAt(hours: readonly OpeningHours[], timeZone: string, instant: Date): boolean {
  const { weekday, time } = wallClock(instant, timeZone);
  return hours.some((h) => h.weekday === weekday && h.opens <= time && time < h.closes);
}
