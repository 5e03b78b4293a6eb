import { useAppSelector } from '../../app/hooks.ts';
import { useT } from '../../i18n/useT.ts';
import type { MessageKey } from '../../i18n/messages.ts';
import { hoursByWeekday, nextOpening } from './timetable.ts';

/** spec §2 stage "schedule": out of hours, with the timetable unless hidden, and when it opens. */
export function SchedulePage({ now = new Date() }: { now?: Date }) {
  const t = useT();
  const company = useAppSelector((state) => state.company.details);
  if (!company) return null;
  const { schedule } = company;
  const opens = schedule ? nextOpening(schedule, now) : null;
  const locale = document.documentElement.lang || undefined;
  return (
    <section className="notice" data-testid="stage-schedule" aria-labelledby="schedule-title">
      <h1 id="schedule-title">{t('scheduleTitle')}</h1>
      <p>{company.outOfHoursMsg ?? t('scheduleDefault')}</p>
      {opens && (
        <p data-testid="next-opening">
          {t('nextOpening', {
            when: new Intl.DateTimeFormat(locale, {
              weekday: 'long',
              hour: 'numeric',
              minute: '2-digit',
            }).format(opens),
          })}
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
                <th scope="row">{t(`weekday${weekday}` as MessageKey)}</th>
                <td>
                  {hours.length === 0
                    ? t('closedAllDay')
                    : hours.map((h) => (
                        <bdi key={h.opens} className="hours">
                          {h.opens}–{h.closes}
                        </bdi>
                      ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
