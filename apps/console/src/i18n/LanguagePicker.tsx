import { useEffect, useId, useSyncExternalStore } from 'react';
import { changeLanguage, chooseLanguage, staffLanguage, subscribeLanguage } from './language.ts';
import { currentLanguage, LANGUAGES, t, type Language } from './messages.ts';
import './i18n.css';

/** Each language named in itself, so a reader finds theirs whatever the console speaks. */
const NAMES: Record<Language, string> = { en: 'English', ar: 'العربية' };

/** The user menu's choice of language, kept for the staff member (decision 0029). */
export function LanguagePicker({ staffId }: { staffId?: number | string }) {
  const id = useId();
  const language = useSyncExternalStore(subscribeLanguage, currentLanguage);
  // Signed in, the console speaks the language this staff member chose, if they ever did here.
  useEffect(() => {
    const chosen = staffId === undefined ? null : staffLanguage(staffId);
    if (chosen) void changeLanguage(chosen);
  }, [staffId]);
  return (
    <div className="language-picker">
      <label htmlFor={id}>{t('languageLabel')}</label>
      <select
        id={id}
        data-testid="language-picker"
        value={language}
        onChange={(event) => void chooseLanguage(event.target.value as Language, staffId)}
      >
        {LANGUAGES.map((each) => (
          <option key={each} value={each} lang={each}>
            {NAMES[each]}
          </option>
        ))}
      </select>
    </div>
  );
}
