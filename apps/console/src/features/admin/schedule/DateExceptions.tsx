import { useRef } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { addDays, localDate } from '@frontdesk/protocol';
import { intlLocale, t } from '../../../i18n/messages.ts';
import { EmptyState } from '../../../ui/ListState.tsx';
import { IntervalFields, nextInterval } from './IntervalFields.tsx';
import { PathInput } from '../PathInput.tsx';
import type { ScheduleValues } from './scheduleDraft.ts';

/** `2026-12-24` as the admin reads it: "Thursday 24 December 2026". */
function dayInWords(date: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const day = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return null;
  return new Intl.DateTimeFormat(intlLocale(), {
    timeZone: 'UTC',
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(day);
}

/** One date: which, its name for guests, closed all day or its own openings. */
function ExceptionRow(props: { index: number; today: string; onRemove: () => void }) {
  const { index } = props;
  const { control, getValues } = useFormContext<ScheduleValues>();
  const { fields, append, remove, replace } = useFieldArray({
    control,
    name: `exceptions.${index}.hours`,
    keyName: 'key',
  });
  const date = useWatch({ control, name: `exceptions.${index}.date` });
  const label = useWatch({ control, name: `exceptions.${index}.label` });
  const addButton = useRef<HTMLButtonElement>(null);
  const closedId = `schedule-exceptions-${index}-closed`;
  const day = dayInWords(date) ?? t('scheduleNewDate');
  const closed = fields.length === 0;
  return (
    <li>
      <fieldset className="schedule-day schedule-date" data-date={date}>
        <legend>
          {day}
          {label.trim() && <bdi className="schedule-date-label"> · {label.trim()}</bdi>}
          {date && date < props.today && (
            <span className="schedule-past"> ({t('schedulePast')})</span>
          )}
        </legend>
        <div className="schedule-date-fields">
          <PathInput path={`exceptions.${index}.date`} label={t('scheduleDate')} type="date" />
          <PathInput
            path={`exceptions.${index}.label`}
            label={t('scheduleDateLabel')}
            help={t('scheduleDateLabelHelp')}
            input={{ maxLength: 100 }}
          />
        </div>
        <div className="field inline">
          <input
            id={closedId}
            type="checkbox"
            checked={closed}
            onChange={(event) => {
              if (event.target.checked) replace([]);
              else append(nextInterval([]), { focusName: `exceptions.${index}.hours.0.opens` });
            }}
          />
          <label htmlFor={closedId}>{t('scheduleClosedAllDay')}</label>
        </div>
        {!closed && (
          <>
            <ul className="intervals">
              {fields.map((field, hour) => (
                <IntervalFields
                  key={field.key}
                  path={`exceptions.${index}.hours.${hour}`}
                  day={day}
                  onRemove={() => {
                    remove(hour);
                    addButton.current?.focus();
                  }}
                />
              ))}
            </ul>
            <button
              type="button"
              className="secondary schedule-add"
              ref={addButton}
              aria-label={t('scheduleAddHoursOn', { day })}
              onClick={() =>
                append(
                  nextInterval(
                    [...getValues(`exceptions.${index}.hours`)].sort((a, b) =>
                      a.opens.localeCompare(b.opens),
                    ),
                  ),
                  { focusName: `exceptions.${index}.hours.${fields.length}.opens` },
                )
              }
            >
              {t('scheduleAddHours')}
            </button>
          </>
        )}
        <button
          type="button"
          className="secondary schedule-remove-date"
          aria-label={t('scheduleRemoveDate', { day })}
          onClick={props.onRemove}
        >
          {t('scheduleRemoveDateShort')}
        </button>
      </fieldset>
    </li>
  );
}

/**
 * Holidays and other dates that keep their own hours instead of their weekday's, by the
 * company's calendar; a new one starts on the day after the last one listed, from today on.
 */
export function DateExceptions() {
  const { control, getValues } = useFormContext<ScheduleValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'exceptions', keyName: 'key' });
  const timeZone = useWatch({ control, name: 'timeZone' });
  const addHoliday = useRef<HTMLButtonElement>(null);
  const today = safeToday(timeZone);

  const add = (closed: boolean) => {
    const last = getValues('exceptions')
      .map((e) => e.date)
      .filter((date) => /^\d{4}-\d{2}-\d{2}$/.test(date) && date >= today)
      .sort()
      .at(-1);
    append(
      { date: last ? addDays(last, 1) : today, label: '', hours: closed ? [] : [nextInterval([])] },
      { focusName: `exceptions.${fields.length}.date` },
    );
  };

  return (
    <section className="settings-group" aria-labelledby="schedule-dates-title">
      <h2 id="schedule-dates-title">{t('scheduleDates')}</h2>
      <p className="help">{t('scheduleDatesHelp')}</p>
      {fields.length === 0 ? (
        <EmptyState title={t('scheduleNoDates')} hint={t('scheduleDatesEmptyHint')} />
      ) : (
        <ul className="schedule-dates">
          {fields.map((field, index) => (
            <ExceptionRow
              key={field.key}
              index={index}
              today={today}
              onRemove={() => {
                remove(index);
                addHoliday.current?.focus();
              }}
            />
          ))}
        </ul>
      )}
      <div className="actions">
        <button type="button" className="secondary" ref={addHoliday} onClick={() => add(true)}>
          {t('scheduleAddHoliday')}
        </button>
        <button type="button" className="secondary" onClick={() => add(false)}>
          {t('scheduleAddDate')}
        </button>
      </div>
    </section>
  );
}

/** Today's date in the company's zone, or in UTC while the zone typed is not a zone yet. */
function safeToday(timeZone: string): string {
  try {
    return localDate(new Date(), timeZone);
  } catch {
    return localDate(new Date(), 'UTC');
  }
}
