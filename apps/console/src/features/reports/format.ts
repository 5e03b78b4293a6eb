import { intlLocale, t } from '../../i18n/messages.ts';

/** The reports' figures in words; `null` (nothing to measure) is a dash everywhere. */
export const NONE = '—';

// Numbers in the console's language (its digits), made as they are needed: the language may change.
const integer = () => new Intl.NumberFormat(intlLocale());
const percentFormat = () =>
  new Intl.NumberFormat(intlLocale(), { style: 'percent', maximumFractionDigits: 1 });
const decimal = () => new Intl.NumberFormat(intlLocale(), { maximumFractionDigits: 2 });

export const formatCount = (value: number) => integer().format(value);

export const formatRatio = (value: number | null) =>
  value === null ? NONE : percentFormat().format(value);

export const formatDecimal = (value: number | null) =>
  value === null ? NONE : decimal().format(value);

/** A length of time as a person says it: "850 ms", "42 s", "3 min 05 s", "1 h 02 min". */
export function formatDuration(ms: number | null): string {
  if (ms === null) return NONE;
  if (ms < 1000) return t('durationMs', { ms: String(Math.round(ms)) });
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return t('durationSeconds', { s: String(seconds) });
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) {
    return t('durationMinutes', { m: String(minutes), s: String(seconds % 60).padStart(2, '0') });
  }
  return t('durationHours', {
    h: String(Math.floor(minutes / 60)),
    m: String(minutes % 60).padStart(2, '0'),
  });
}

const tenths = () => new Intl.NumberFormat(intlLocale(), { maximumFractionDigits: 1 });

/** A measured time (a round trip, a set-up): milliseconds under a second, tenths of seconds above. */
export const formatMs = (ms: number | null) => {
  if (ms === null) return NONE;
  if (ms < 1000) return t('durationMs', { ms: String(Math.round(ms)) });
  return t('durationSeconds', { s: tenths().format(ms / 1000) });
};

export function formatBytes(bytes: number | null): string {
  if (bytes === null) return NONE;
  if (bytes < 1024) return t('sizeBytes', { n: bytes });
  if (bytes < 1024 * 1024) return t('sizeKb', { n: decimal().format(bytes / 1024) });
  return t('sizeMb', { n: decimal().format(bytes / (1024 * 1024)) });
}

/** A time of day in the company's zone ("14:05:09"), for the timeline of one call. */
export function formatClock(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat(intlLocale(), { timeStyle: 'medium', timeZone }).format(
    new Date(iso),
  );
}

/** A day of the calendar (`2026-03-01`) as words ("1 Mar 2026"), whatever the reader's zone. */
export function formatDay(day: string): string {
  return new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

/** Weekdays as the reports number them (0 Sunday), by name. */
export function weekdayName(weekday: number): string {
  // 4 January 1970 was a Sunday.
  return new Intl.DateTimeFormat(intlLocale(), { weekday: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(1970, 0, 4 + weekday)),
  );
}

/** An hour of the day as the span it stands for: "09:00–10:00". */
export const hourSpan = (hour: number) =>
  `${String(hour).padStart(2, '0')}:00–${String((hour + 1) % 24).padStart(2, '0')}:00`;
