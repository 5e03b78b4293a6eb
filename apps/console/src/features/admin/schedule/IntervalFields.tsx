import { useFormContext, useWatch } from 'react-hook-form';
import { t } from '../../../i18n/messages.ts';
import { PathInput } from '../PathInput.tsx';
import { overnightNote, type ScheduleValues } from './scheduleDraft.ts';

/** Where an opening sits in the form: one of the week's, or one of a date's. */
export type IntervalPath = `hours.${number}` | `exceptions.${number}.hours.${number}`;

/**
 * One opening: when it opens and closes, how a night ends ("until 02:00 next day"), and the
 * button that removes it (named by its day and hours, as several sit side by side).
 */
export function IntervalFields(props: {
  path: IntervalPath;
  /** The day it belongs to, in words: "Monday", "24 December". */
  day: string;
  onRemove: () => void;
}) {
  const { control } = useFormContext<ScheduleValues>();
  const opens = useWatch({ control, name: `${props.path}.opens` });
  const closes = useWatch({ control, name: `${props.path}.closes` });
  const note = overnightNote({ opens, closes });
  return (
    <li className="interval">
      {(['opens', 'closes'] as const).map((end) => (
        <PathInput
          key={end}
          path={`${props.path}.${end}`}
          type="time"
          className="time-field"
          label={end === 'opens' ? t('scheduleOpens') : t('scheduleCloses')}
          input={{ required: true }}
        />
      ))}
      <button
        type="button"
        className="secondary interval-remove"
        aria-label={t('scheduleRemoveInterval', { day: props.day, opens, closes })}
        onClick={props.onRemove}
      >
        {t('adminRemove')}
      </button>
      {note && <p className="interval-note">{note}</p>}
    </li>
  );
}

/**
 * The time a new opening of a day starts and ends: 09:00–17:00 on an empty day, otherwise four
 * hours from an hour after the day's last closing (the admin changes it anyway).
 */
export function nextInterval(existing: readonly { closes: string }[]): {
  opens: string;
  closes: string;
} {
  const last = existing.at(-1);
  if (!last || !/^\d\d:\d\d$/.test(last.closes)) return { opens: '09:00', closes: '17:00' };
  const [hour = 0, minute = 0] = last.closes.split(':').map(Number);
  const clock = (minutes: number) => {
    const m = minutes % (24 * 60);
    return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  };
  const start = hour * 60 + minute + 60;
  return { opens: clock(start), closes: clock(start + 4 * 60) };
}
