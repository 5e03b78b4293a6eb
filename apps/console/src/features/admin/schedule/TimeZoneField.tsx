import { t } from '../../../i18n/messages.ts';
import { controlId, PathInput } from '../PathInput.tsx';

/** Every IANA zone this browser knows, for the list typing searches in. */
const ZONES: readonly string[] = Intl.supportedValuesOf('timeZone');

/**
 * The company's time zone: typed, with the browser's list of IANA zones offered as one types
 * (a searchable list that works with a keyboard, a screen reader and a phone's own picker).
 */
export function TimeZoneField() {
  const list = `${controlId('timeZone')}-zones`;
  return (
    <PathInput
      path="timeZone"
      label={t('scheduleTimeZone')}
      help={t('scheduleTimeZoneHelp')}
      input={{ list, autoComplete: 'off', spellCheck: false }}
    >
      <datalist id={list}>
        {ZONES.map((zone) => (
          <option key={zone} value={zone} />
        ))}
      </datalist>
    </PathInput>
  );
}
