import { useId, useState, type RefObject } from 'react';
import { t } from '../../i18n/messages.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import {
  playRing,
  readRingPreferences,
  RING_SOUNDS,
  writeRingPreferences,
  type RingPreferences,
} from './ringer.ts';

/**
 * The agent's ring: its sound and volume, kept in this browser, tried with "Play". Opened from
 * the user menu; `opener` gets the focus back when it closes.
 */
export function RingSettings(props: {
  onClose: () => void;
  opener?: RefObject<HTMLElement | null>;
}) {
  const [preferences, setPreferences] = useState<RingPreferences>(readRingPreferences);
  const id = useId();
  function change(next: RingPreferences) {
    setPreferences(next);
    writeRingPreferences(next);
  }
  return (
    <Dialog
      title={t('ringSettingsTitle')}
      description={<p>{t('ringSettingsHint')}</p>}
      onCancel={props.onClose}
      opener={props.opener}
      testId="ring-settings"
    >
      <label htmlFor={`${id}-sound`}>{t('ringSound')}</label>
      <select
        id={`${id}-sound`}
        value={preferences.sound}
        onChange={(event) =>
          change({ ...preferences, sound: event.target.value as RingPreferences['sound'] })
        }
      >
        {RING_SOUNDS.map((sound) => (
          <option key={sound} value={sound}>
            {t(`ringSound_${sound}`)}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-volume`}>{t('ringVolume')}</label>
      <input
        id={`${id}-volume`}
        type="range"
        min={0}
        max={100}
        step={10}
        value={Math.round(preferences.volume * 100)}
        aria-valuetext={`${Math.round(preferences.volume * 100)} %`}
        onChange={(event) => change({ ...preferences, volume: Number(event.target.value) / 100 })}
      />
      <div className="actions">
        <button type="button" className="secondary" onClick={() => playRing(preferences)}>
          {t('ringTest')}
        </button>
        <button type="button" onClick={props.onClose}>
          {t('close')}
        </button>
      </div>
    </Dialog>
  );
}
