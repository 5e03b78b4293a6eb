import { useCallback } from 'react';
import { useAppSelector } from '../app/hooks.ts';
import { languageOf, translate, type MessageKey } from './messages.ts';

/**
 * The translate function for the language the embedding site asked for (`?lang=`), else the
 * company's (the browser's before the company loads).
 */
export function useT() {
  const tag = useAppSelector(
    (state) => state.page.language ?? state.company.details?.language ?? navigator.language,
  );
  const language = languageOf(tag);
  return useCallback(
    (key: MessageKey, values?: Record<string, string>) => translate(language, key, values),
    [language],
  );
}
