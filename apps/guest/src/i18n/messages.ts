import { IntlMessageFormat } from 'intl-messageformat';
import english from 'virtual:guest-messages/en';
import type englishSource from './catalogues/en.json';

/** A sentence of the guest app: a key of catalogues/en.json, which every catalogue repeats. */
export type MessageKey = keyof typeof englishSource;
export type Language = 'en' | 'ar';
/** What fills a message's arguments; plurals (`{count, plural, …}`) take numbers. */
export type MessageValues = Record<string, string | number>;

type Catalogue = typeof english;

/** The supported language closest to a BCP 47 tag (`ar-EG` → `ar`); English otherwise. */
export function languageOf(tag: string): Language {
  const base = tag.toLowerCase().split('-')[0];
  return base === 'ar' ? 'ar' : 'en';
}

/** English comes with the page; another language is fetched by the page that speaks it. */
const loaded: Partial<Record<Language, Catalogue>> = { en: english };
const loading = new Map<Language, Promise<void>>();
const fetchers: Record<Exclude<Language, 'en'>, () => Promise<{ default: Catalogue }>> = {
  ar: () => import('virtual:guest-messages/ar'),
};

/**
 * Fetches `language`'s catalogue once; its sentences are English until it has come. A failed
 * fetch leaves them English (and may be tried again) rather than stopping the visit.
 */
export function loadLanguage(language: Language): Promise<void> {
  if (language === 'en' || loaded[language]) return Promise.resolve();
  let pending = loading.get(language);
  if (!pending) {
    pending = fetchers[language]().then(
      (module) => {
        loaded[language] = module.default;
      },
      (error: unknown) => {
        loading.delete(language);
        console.warn(`The ${language} sentences could not be loaded`, error);
      },
    );
    loading.set(language, pending);
  }
  return pending;
}

/** One formatter a message and language, made the first time it is needed. */
const formatters = new Map<string, IntlMessageFormat>();

/**
 * A sentence in `language` (English until its catalogue has loaded) with its arguments filled
 * by the language's rules: plural forms (Arabic's dual, few and many included), numbers in the
 * language's digits.
 */
export function translate(language: Language, key: MessageKey, values: MessageValues = {}): string {
  const speaking = loaded[language] ? language : 'en';
  const message = (loaded[speaking] ?? english)[key];
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
