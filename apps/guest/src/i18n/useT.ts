import { useCallback } from 'react';
import { useAppSelector } from '../app/hooks.ts';
import type { RootState } from '../app/store.ts';
import { languageOf, translate, type Language, type MessageKey } from './messages.ts';

/**
 * The language the embedding site asked for (`?lang=`), else the company's (the browser's before
 * the company loads); also for what the page says outside React (a notification).
 */
export function pageLanguage(state: RootState): Language {
  return languageOf(state.page.language ?? state.company.details?.language ?? navigator.language);
}

/** The translate function for the page's language ({@link pageLanguage}). */
export function useT() {
  const language = useAppSelector(pageLanguage);
  return useCallback(
    (key: MessageKey, values?: Record<string, string>) => translate(language, key, values),
    [language],
  );
}
