/**
 * The console's sentences (decision 0029). They live in ICU MessageFormat catalogues,
 * `catalogues/en.json` and `catalogues/ar.json`: a new sentence is a key in BOTH (the build
 * fails naming a key a translation lacks, adds, or whose arguments differ). Components keep
 * calling `t(key, values)`; the build (build/message-catalogues.ts) parses the catalogues, and
 * the apps' shared runtime (`@frontdesk/messages`, decision 0036) formats them.
 */
import {
  directionOf,
  hasMessage as hasSentence,
  loadLanguage,
  translate,
  type Language,
  type MessageValues,
} from '@frontdesk/messages';
import type englishSource from './catalogues/en.json';

export { languageOf, LANGUAGES, type Language, type MessageValues } from '@frontdesk/messages';

/** A sentence of the console: a key of catalogues/en.json, which every catalogue repeats. */
export type MessageKey = keyof typeof englishSource;

/** Whether the console has a sentence of this name (optional ones: a field's help). */
export const hasMessage = (key: string): key is MessageKey => hasSentence(key);

let current: Language = 'en';

/** The language the console speaks now (its sentences, and Intl's dates and numbers). */
export const currentLanguage = (): Language => current;

/**
 * The locale for Intl's dates, times and numbers, and the sentences' figures: British English's
 * day-month order for English, as the console always wrote them; Arabic with its own digits.
 */
export const intlLocale = (): string => (current === 'en' ? 'en-GB' : current);

/**
 * Makes `language` the console's once its catalogue has loaded, and marks the document with its
 * `lang` and direction. A catalogue that fails to load leaves the console in the language it had
 * (rather than right to left with English sentences), and the promise rejects.
 */
export async function switchLanguage(language: Language): Promise<void> {
  if (!(await loadLanguage(language))) throw new Error(`The ${language} sentences did not load`);
  current = language;
  if (typeof document !== 'undefined') {
    document.documentElement.lang = language;
    document.documentElement.dir = directionOf(language);
  }
}

/**
 * A sentence in the console's language with its arguments filled by the language's rules:
 * plural forms (Arabic's zero, one, two, few and many), numbers in the language's digits.
 */
export const t = (key: MessageKey, values?: MessageValues): string =>
  translate(intlLocale(), key, values);
