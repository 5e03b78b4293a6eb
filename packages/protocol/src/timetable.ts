import type { OpeningHours, OpeningInterval, ScheduleException } from './company.ts';

/**
 * What working out a timetable needs: the time zone its clock times are read in, the week's
 * openings and the dates that differ. The API, the guest page and the admin's preview all use
 * the functions below, so they agree on every instant.
 *
 * The rules, by the company's clock:
 * - a date follows its exception when it has one, its weekday's openings otherwise;
 * - an opening that runs past midnight ends at its `closes` the next day, unless that next day
 *   has an exception, whose midnight then ends it (a holiday is closed from its first minute);
 * - `opens` and `closes` are the instants the clock first shows them: on a spring-forward day a
 *   time the clock skips is the instant it jumps (01:30 in London on the last Sunday of March is
 *   the 02:00 BST that follows 00:59 GMT); on a fall-back day a repeated time is its first
 *   showing, so 01:30–02:30 then lasts two hours.
 */
export type Timetable = {
  timeZone: string;
  hours: readonly OpeningHours[];
  exceptions: readonly ScheduleException[];
};

/** One opening as instants: open from `opens` (inclusive) to `closes` (exclusive). */
export type Opening = { opens: Date; closes: Date };

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** One formatter a zone: building one costs far more than using it, and every guest asks. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The zone's clock at the minute of `ms`, read as if it were UTC (milliseconds). */
function clockAsUtc(ms: number, timeZone: string): number {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {};
  for (const part of formatterFor(timeZone).formatToParts(ms))
    parts[part.type] = Number(part.value);
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0 } = parts;
  return Date.UTC(year, month - 1, day, hour, minute);
}

/** How far the zone's clock is ahead of UTC at `ms` (milliseconds, whole minutes). */
const offsetAt = (ms: number, timeZone: string): number =>
  clockAsUtc(ms, timeZone) - (ms - (((ms % MINUTE_MS) + MINUTE_MS) % MINUTE_MS));

/** `YYYY-MM-DD` of a UTC-read clock value. */
const dateOfClock = (clock: number): string => new Date(clock).toISOString().slice(0, 10);

const clockOfDate = (date: string): number => Date.parse(`${date}T00:00:00Z`);

const minutesOf = (time: string): number => {
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  return hour * 60 + minute;
};

/** The date the zone's clock shows at `instant`, `YYYY-MM-DD`. */
export function localDate(instant: Date, timeZone: string): string {
  return dateOfClock(clockAsUtc(instant.getTime(), timeZone));
}

/** `date` moved by `days` (negative: back), `YYYY-MM-DD`. */
export function addDays(date: string, days: number): string {
  return dateOfClock(clockOfDate(date) + days * DAY_MS);
}

/** The ISO weekday of `date` (1 = Monday … 7 = Sunday). */
function weekdayOf(date: string): number {
  return ((new Date(clockOfDate(date)).getUTCDay() + 6) % 7) + 1;
}

/**
 * The first instant the zone's clock shows `time` on `date`, or, when the clock skips that time
 * (spring forward), the instant it jumps past it.
 */
function instantOf(date: string, time: string, timeZone: string): Date {
  const clock = clockOfDate(date) + minutesOf(time) * MINUTE_MS;
  // The zone's offsets a day either side; a change of offset lies between them, if any.
  const before = offsetAt(clock - DAY_MS, timeZone);
  const after = offsetAt(clock + DAY_MS, timeZone);
  const shown = [clock - before, clock - after].filter((ms) => clockAsUtc(ms, timeZone) === clock);
  if (shown.length > 0) return new Date(Math.min(...shown));
  // Skipped: the jump lies between the instant the old offset and the new one would give.
  let early = clock - after;
  let late = clock - before;
  while (late - early > MINUTE_MS) {
    const middle = early + Math.floor((late - early) / 2 / MINUTE_MS) * MINUTE_MS;
    if (offsetAt(middle, timeZone) === before) early = middle;
    else late = middle;
  }
  return new Date(late);
}

/** The openings that begin on `date`, in order, as instants. */
function openingsOn(
  timetable: Timetable,
  exceptions: ReadonlyMap<string, ScheduleException>,
  date: string,
): Opening[] {
  const weekday = weekdayOf(date);
  const intervals: readonly OpeningInterval[] =
    exceptions.get(date)?.hours ?? timetable.hours.filter((h) => h.weekday === weekday);
  const next = addDays(date, 1);
  return [...intervals]
    .sort((a, b) => a.opens.localeCompare(b.opens))
    .map(({ opens, closes }) => {
      const overnight = closes <= opens;
      return {
        opens: instantOf(date, opens, timetable.timeZone),
        closes: instantOf(
          overnight ? next : date,
          overnight && exceptions.has(next) ? '00:00' : closes,
          timetable.timeZone,
        ),
      };
    });
}

const byDate = (exceptions: readonly ScheduleException[]) =>
  new Map(exceptions.map((e) => [e.date, e]));

/**
 * The openings that begin from the day before `from`'s date (whose night may still run) through
 * `days` days after it, in order.
 */
function* openingsFrom(timetable: Timetable, from: Date, days: number): Generator<Opening> {
  const exceptions = byDate(timetable.exceptions);
  const first = addDays(localDate(from, timetable.timeZone), -1);
  for (let day = 0; day <= days + 1; day++) {
    yield* openingsOn(timetable, exceptions, addDays(first, day));
  }
}

/**
 * The openings that overlap `from`–`to` (exclusive), in order: the reports count only what began
 * within them, by the same rules that opened the door to guests.
 */
export function openingsBetween(timetable: Timetable, from: Date, to: Date): Opening[] {
  const days = Math.ceil((to.getTime() - from.getTime()) / DAY_MS) + 1;
  return [...openingsFrom(timetable, from, days)].filter(
    ({ opens, closes }) => opens < to && closes > from,
  );
}

/** Whether the timetable is open at `instant` (spec §2 stage "schedule"). */
export function isOpenAt(timetable: Timetable, instant: Date): boolean {
  for (const { opens, closes } of openingsFrom(timetable, instant, 0)) {
    if (opens <= instant && instant < closes) return true;
  }
  return false;
}

/**
 * When the timetable next opens after `now`; `null` when it opens on none of the days it
 * decides: through its last exception and a week past it (after that the week only repeats).
 */
export function nextOpening(timetable: Timetable, now: Date): Date | null {
  const today = localDate(now, timetable.timeZone);
  const lastException = timetable.exceptions.reduce(
    (last, { date }) => (date > last ? date : last),
    today,
  );
  const days = (clockOfDate(lastException) - clockOfDate(today)) / DAY_MS + 7;
  for (const { opens } of openingsFrom(timetable, now, days)) {
    if (opens > now) return opens;
  }
  return null;
}
