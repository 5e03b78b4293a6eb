/**
 * The one i18n runtime of the guest page and the console (decision 0036). An app's sentences
 * are ICU MessageFormat catalogues that build/message-catalogues.ts parses at build time into
 * `virtual:messages/<language>`, so a page ships FormatJS's formatter without its parser; this
 * module fetches a language's catalogue once and formats its messages by that language's rules.
 * Each app keeps its catalogues, its keys' type and the language it speaks; the console's
 * British English is the locale it formats in (see {@link translate}).
 */
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import english from 'virtual:messages/en';

export type Language = 'en' | 'ar';

export const LANGUAGES: readonly Language[] = ['en', 'ar'];

/** What fills a message's arguments; plurals (`{count, plural, …}`) take numbers. */
export type MessageValues = Record<string, string | number>;

/** A catalogue as the build compiles it: text alone stays a string, the rest is parsed. */
export type Catalogue = Record<string, string | MessageFormatElement[]>;

/** The supported language closest to a BCP 47 tag (`ar-EG` → `ar`); English otherwise. */
export function languageOf(tag: string): Language {
  const base = tag.toLowerCase().split('-')[0];
  return base === 'ar' ? 'ar' : 'en';
}

/** Each language's direction, for `<html dir>`. */
export const directionOf = (language: Language): 'ltr' | 'rtl' =>
  language === 'ar' ? 'rtl' : 'ltr';

/** English comes with the page; another language is fetched by the page that speaks it. */
const loaded: Partial<Record<Language, Catalogue>> = { en: english };
/** A fetch under way or done (a failed one is forgotten, so a later call tries again). */
const loading = new Map<Language, Promise<boolean>>();
const fetchers: Record<Exclude<Language, 'en'>, () => Promise<{ default: Catalogue }>> = {
  ar: () => import('virtual:messages/ar'),
};

/**
 * Fetches `language`'s catalogue once (calls made while it comes share the one fetch) and tells
 * whether its sentences are here. A failed fetch is logged and leaves the language's sentences
 * English rather than stopping the page (the guest's visit goes on; the console keeps the
 * language it had).
 */
export function loadLanguage(language: Language): Promise<boolean> {
  if (language === 'en') return Promise.resolve(true);
  let pending = loading.get(language);
  if (!pending) {
    pending = fetchers[language]().then(
      (module) => {
        loaded[language] = module.default;
        return true;
      },
      (error: unknown) => {
        loading.delete(language);
        console.warn(`The ${language} sentences could not be loaded`, error);
        return false;
      },
    );
    loading.set(language, pending);
  }
  return pending;
}

/** Whether the app has a sentence of this name (optional ones, such as a field's help). */
export const hasMessage = (key: string): boolean => Object.hasOwn(english, key);

/** One formatter a message and locale, made the first time it is needed. */
const formatters = new Map<string, IntlMessageFormat>();

/**
 * A sentence in `locale`'s language (English until its catalogue has loaded) with its
 * arguments filled by the locale's rules: plural forms (Arabic's zero, one, two, few and many),
 * numbers in its digits. The locale is the language for the guest page, `en-GB` for the
 * console's English.
 */
export function translate(locale: string, key: string, values?: MessageValues): string {
  const catalogue = loaded[languageOf(locale)];
  const speaking = catalogue ? locale : 'en';
  const message = (catalogue ?? english)[key];
  if (message === undefined) throw new Error(`No message "${key}" in ${speaking}`);
  if (typeof message === 'string') return message;
  const id = `${speaking}:${key}`;
  let formatter = formatters.get(id);
  if (!formatter) {
    formatter = new IntlMessageFormat(message, speaking);
    formatters.set(id, formatter);
  }
  return String(formatter.format(values));
}
