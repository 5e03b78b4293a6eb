import { useRef } from 'react';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { t } from '../../../i18n/messages.ts';
import { IntervalFields, nextInterval } from './IntervalFields.tsx';
import { WEEKDAYS, weekdayName, type ScheduleValues } from './scheduleDraft.ts';

/**
 * The week's openings, a day at a time: several a day, nights into the next day, a day
 * without any closed. They stay one list in the form (the API's `hours`); each day shows its
 * own. Adding one moves the focus to its opening time, removing one to its day's Add button.
 */
export function WeekHours() {
  const { control, getValues } = useFormContext<ScheduleValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'hours', keyName: 'key' });
  const addButtons = useRef(new Map<number, HTMLButtonElement>());

  return (
    <section className="settings-group" aria-labelledby="schedule-week-title">
      <h2 id="schedule-week-title">{t('scheduleWeek')}</h2>
      <p className="help">{t('scheduleWeekHelp')}</p>
      {WEEKDAYS.map((weekday) => {
        const day = weekdayName(weekday);
        const rows = fields
          .map((field, index) => ({ field, index }))
          .filter(({ field }) => field.weekday === weekday);
        return (
          <fieldset key={weekday} className="schedule-day" data-weekday={weekday}>
            <legend>{day}</legend>
            {rows.length === 0 ? (
              <p className="schedule-closed">{t('scheduleClosedAllDay')}</p>
            ) : (
              <ul className="intervals">
                {rows.map(({ field, index }) => (
                  <IntervalFields
                    key={field.key}
                    path={`hours.${index}`}
                    day={day}
                    onRemove={() => {
                      remove(index);
                      addButtons.current.get(weekday)?.focus();
                    }}
                  />
                ))}
              </ul>
            )}
            <button
              type="button"
              className="secondary schedule-add"
              ref={(button) => {
                if (button) addButtons.current.set(weekday, button);
                else addButtons.current.delete(weekday);
              }}
              aria-label={t('scheduleAddHoursOn', { day })}
              onClick={() => {
                const today = getValues('hours')
                  .filter((h) => h.weekday === weekday)
                  .sort((a, b) => a.opens.localeCompare(b.opens));
                append(
                  { weekday, ...nextInterval(today) },
                  { focusName: `hours.${fields.length}.opens` },
                );
              }}
            >
              {t('scheduleAddHours')}
            </button>
          </fieldset>
        );
      })}
    </section>
  );
}
