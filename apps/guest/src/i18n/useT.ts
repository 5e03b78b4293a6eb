import { useCallback } from 'react';
import { useAppSelector } from '../app/hooks.ts';
import type { RootState } from '../app/store.ts';
import {
  languageOf,
  translate,
  type Language,
  type MessageKey,
  type MessageValues,
} from './messages.ts';

/**
 * The language the embedding site asked for (`?lang=`), else the company's (the browser's before
 * the company loads); also for what the page says outside React (a notification).
 */
export function pageLanguage(state: RootState): Language {
  return languageOf(state.page.language ?? state.company.details?.language ?? navigator.language);
}

/** The page's language ({@link pageLanguage}), for dates and numbers outside the sentences. */
export const useLanguage = (): Language => useAppSelector(pageLanguage);

/** The translate function for the page's language. */
export function useT() {
  const language = useLanguage();
  return useCallback(
    (key: MessageKey, values?: MessageValues) => translate(language, key, values),
    [language],
  );
}
