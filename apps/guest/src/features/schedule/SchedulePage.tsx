import { nextOpening, type OpeningInterval } from '@frontdesk/protocol';
import { useAppSelector } from '../../app/hooks.ts';
import { useLanguage, useT } from '../../i18n/useT.ts';
import { hoursByWeekday, upcomingExceptions } from './timetable.ts';
import './schedule.css';

/** `YYYY-MM-DD` as a calendar date: the day itself, whatever the guest's zone. */
const calendarDay = (date: string) => new Date(`${date}T00:00:00Z`);

/** A day's openings (a night's closing is the next morning's), or "Closed". */
function Openings({ hours }: { hours: readonly OpeningInterval[] }) {
  const t = useT();
  if (hours.length === 0) return t('closedAllDay');
  return hours.map((h) => (
    <bdi key={h.opens} className="hours">
      {h.opens}–{h.closes}
    </bdi>
  ));
}

/**
 * spec §2 stage "schedule": out of hours, with the timetable and its coming special dates
 * unless hidden, and when it opens next (following those dates), in the guest's own time.
 */
export function SchedulePage({ now = new Date() }: { now?: Date }) {
  const t = useT();
  // Dates in the page's language, by the guest's own clock.
  const locale = useLanguage();
  const company = useAppSelector((state) => state.company.details);
  if (!company) return null;
  const { schedule } = company;
  const opens = schedule ? nextOpening(schedule, now) : null;
  const specialDates = schedule ? upcomingExceptions(schedule, now) : [];
  // Weekday n (1 = Monday) named from 1 January 2024, a Monday.
  const weekdayName = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'long' });
  const dayName = new Intl.DateTimeFormat(locale, {
    timeZone: 'UTC',
    weekday: 'long',
    day: 'numeric',
    month: 'long',
  });
  return (
    <section className="notice" data-testid="stage-schedule" aria-labelledby="schedule-title">
      <h1 id="schedule-title">{t('scheduleTitle')}</h1>
      <p>{company.outOfHoursMsg ?? t('scheduleDefault')}</p>
      {opens && (
        <p data-testid="next-opening">
          <time dateTime={opens.toISOString()}>
            {t('nextOpening', {
              // The date too: after a holiday the next opening may be more than a week away.
              when: new Intl.DateTimeFormat(locale, {
                weekday: 'long',
                day: 'numeric',
                month: 'long',
                hour: 'numeric',
                minute: '2-digit',
              }).format(opens),
            })}
          </time>
        </p>
      )}
      {schedule && !company.hideTimetable && (
        <table className="timetable" data-testid="timetable">
          <caption>
            {t('timetable')} ({schedule.timeZone})
          </caption>
          <tbody>
            {[...hoursByWeekday(schedule.hours)].map(([weekday, hours]) => (
              <tr key={weekday}>
                <th scope="row">{weekdayName.format(Date.UTC(2024, 0, weekday))}</th>
                <td>
                  <Openings hours={hours} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {specialDates.length > 0 && !company.hideTimetable && (
        <table className="timetable" data-testid="special-dates">
          <caption>{t('specialDates')}</caption>
          <tbody>
            {specialDates.map((exception) => (
              <tr key={exception.date}>
                <th scope="row">
                  <time dateTime={exception.date}>
                    {dayName.format(calendarDay(exception.date))}
                  </time>
                  {exception.label && (
                    <>
                      {' '}
                      <bdi>{exception.label}</bdi>
                    </>
                  )}
                </th>
                <td>
                  <Openings hours={exception.hours} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
