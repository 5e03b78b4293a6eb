import { useEffect, useId, useSyncExternalStore } from 'react';
import { changeLanguage, chooseLanguage, staffLanguage, subscribeLanguage } from './language.ts';
import { currentLanguage, LANGUAGES, t, type Language } from './messages.ts';
import './i18n.css';

/** Each language named in itself, so a reader finds theirs whatever the console speaks. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', ar: 'العربية' };

/** The language the console speaks now, rendering again when it changes. */
export const useLanguage = () => useSyncExternalStore(subscribeLanguage, currentLanguage);

/** Signed in, the console speaks the language this staff member chose, if they ever did here. */
export function useStaffLanguage(staffId: number | string | undefined) {
  useEffect(() => {
    const chosen = staffId === undefined ? null : staffLanguage(staffId);
    if (chosen) void changeLanguage(chosen);
  }, [staffId]);
}

/** The sign-in page's choice of language, kept for this browser (decision 0029). */
export function LanguagePicker() {
  const id = useId();
  const language = useLanguage();
  return (
    <div className="language-picker">
      <label htmlFor={id}>{t('languageLabel')}</label>
      <select
        id={id}
        data-testid="language-picker"
        value={language}
        onChange={(event) => void chooseLanguage(event.target.value as Language)}
      >
        {LANGUAGES.map((each) => (
          <option key={each} value={each} lang={each}>
            {LANGUAGE_NAMES[each]}
          </option>
        ))}
      </select>
    </div>
  );
}
