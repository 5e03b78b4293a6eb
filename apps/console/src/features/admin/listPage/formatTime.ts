import { useAppSelector } from '../../../app/hooks.ts';
import { intlLocale } from '../../../i18n/messages.ts';

/** The browser's own time zone, where the company keeps none. */
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The time zone admin pages show times in: the company's (its timetable's), else the browser's.
 * Every such page names it, so a time is never ambiguous.
 */
export function useCompanyTimeZone(): string {
  return useAppSelector((state) => state.auth.company?.schedule?.timeZone) ?? browserZone();
}

/** An instant as a date and a time of day in `timeZone` (e.g. "3 Jul 2026, 14:05"). */
export function formatDateTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat(intlLocale(), {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  }).format(new Date(iso));
}
