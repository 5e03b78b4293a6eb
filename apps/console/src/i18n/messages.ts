/**
 * The console's sentences (decision 0029). They live in ICU MessageFormat catalogues,
 * `catalogues/en.json` and `catalogues/ar.json`: a new sentence is a key in BOTH (the build
 * fails naming a key a translation lacks, adds, or whose arguments differ). Components keep
 * calling `t(key, values)`; the build (build/message-catalogues.ts) parses the catalogues, so
 * the console ships the formatter without its parser.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import english from 'virtual:console-messages/en';
import type englishSource from './catalogues/en.json';

/** A sentence of the console: a key of catalogues/en.json, which every catalogue repeats. */
export type MessageKey = keyof typeof englishSource;
export type Language = 'en' | 'ar';
/** What fills a message's arguments; plurals (`{count, plural, …}`) take numbers. */
export type MessageValues = Record<string, string | number>;

type Catalogue = typeof english;

export const LANGUAGES: readonly Language[] = ['en', 'ar'];

/** The supported language closest to a BCP 47 tag (`ar-EG` → `ar`); English otherwise. */
export function languageOf(tag: string | null | undefined): Language {
  const base = (tag ?? '').toLowerCase().split('-')[0];
  return base === 'ar' ? 'ar' : 'en';
}

/** Each language's direction, for `<html dir>`. */
export const directionOf = (language: Language): 'ltr' | 'rtl' =>
  language === 'ar' ? 'rtl' : 'ltr';

/** English comes with the console; Arabic is fetched by a console that speaks it. */
const loaded: Partial<Record<Language, Catalogue>> = { en: english };
const fetchers: Record<Exclude<Language, 'en'>, () => Promise<{ default: Catalogue }>> = {
  ar: () => import('virtual:console-messages/ar'),
};

/** Fetches `language`'s catalogue once (a failed fetch may be tried again). */
export async function loadLanguage(language: Language): Promise<void> {
  if (language === 'en' || loaded[language]) return;
  loaded[language] = (await fetchers[language]()).default;
}

let current: Language = 'en';

/** The language the console speaks now (its sentences, and Intl's dates and numbers). */
export const currentLanguage = (): Language => current;

/**
 * The locale for Intl's dates, times and numbers: British English's day-month order for
 * English, as the console always wrote them; Arabic with its own digits.
 */
export const intlLocale = (): string => (current === 'ar' ? 'ar' : 'en-GB');

/**
 * Makes `language` the console's, once its catalogue has loaded (English until then), and
 * marks the document with its `lang` and direction.
 */
export async function switchLanguage(language: Language): Promise<void> {
  await loadLanguage(language);
  current = language;
  if (typeof document !== 'undefined') {
    document.documentElement.lang = language;
    document.documentElement.dir = directionOf(language);
  }
}

/** Whether the console has a sentence of this name (optional ones: a field's help). */
export function hasMessage(key: string): key is MessageKey {
  return Object.hasOwn(english, key);
}

/** One formatter a message and language, made the first time it is needed. */
const formatters = new Map<string, IntlMessageFormat>();

/**
 * A sentence in the console's language with its arguments filled by the language's rules:
 * plural forms (Arabic's zero, one, two, few and many), numbers in the language's digits.
 */
export function t(key: MessageKey, values: MessageValues = {}): string {
  const speaking = loaded[current] ? current : 'en';
  const message = (loaded[speaking] ?? english)[key];
  if (message === undefined) throw new Error(`No message "${key}" in ${speaking}`);
  if (typeof message === 'string') return message;
  const id = `${speaking}:${key}`;
  let formatter = formatters.get(id);
  if (!formatter) {
    formatter = new IntlMessageFormat(message, speaking === 'en' ? 'en-GB' : speaking);
    formatters.set(id, formatter);
  }
  return String(formatter.format(values));
}
