import { useId, useSyncExternalStore } from 'react';
import { chooseLanguage, subscribeLanguage } from './language.ts';
import { currentLanguage, LANGUAGES, t, type Language } from './messages.ts';

/** Each language named in itself, so a reader finds theirs whatever the console speaks. */
const NAMES: Record<Language, string> = { en: 'English', ar: 'العربية' };

/** The user menu's choice of language, kept for the staff member (decision 0029). */
export function LanguagePicker({ staffId }: { staffId?: string }) {
  const id = useId();
  const language = useSyncExternalStore(subscribeLanguage, currentLanguage);
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
