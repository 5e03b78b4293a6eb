import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  isStructurallySame,
  parse,
  TYPE,
  type MessageFormatElement,
} from '@formatjs/icu-messageformat-parser';
import type { Catalogue } from '@frontdesk/messages';
import type { Plugin } from 'vite';

/**
 * The build step both apps share (decisions 0026, 0029): each app's sentences are ICU
 * MessageFormat catalogues, `<app>/src/i18n/catalogues/<language>.json`, parsed here at build
 * time so a page ships FormatJS's formatter without its parser.
 */

/** The languages the apps speak; the first is the one every other is checked against. */
export const LANGUAGES = ['en', 'ar'] as const;

/**
 * A key written twice in a catalogue: JSON.parse keeps the last silently, so two features that
 * chose the same name would show one's sentence in the other's place. The catalogues are flat
 * objects of strings, so each string that follows `{` or `,` is a key.
 */
function repeatedKey(text: string): string | undefined {
  const seen = new Set<string>();
  let expectingKey = false;
  for (const [token] of text.matchAll(/"(?:[^"\\]|\\.)*"|[{},]/g)) {
    if (token === '{' || token === ',') expectingKey = true;
    else if (token === '}') expectingKey = false;
    else if (expectingKey) {
      const key = JSON.parse(token) as string;
      if (seen.has(key)) return key;
      seen.add(key);
      expectingKey = false;
    }
  }
  return undefined;
}

/** A catalogue file's messages, each parsed as ICU MessageFormat (`{count, plural, …}`). */
function parsedCatalogue(folder: string, language: string): Record<string, MessageFormatElement[]> {
  const file = resolve(folder, `${language}.json`);
  const text = readFileSync(file, 'utf8');
  const messages = JSON.parse(text) as Record<string, unknown>;
  const repeated = repeatedKey(text);
  if (repeated !== undefined) throw new Error(`${file}: "${repeated}" is written twice`);
  return Object.fromEntries(
    Object.entries(messages).map(([key, message]) => {
      if (typeof message !== 'string') throw new Error(`${file}: "${key}" is not a string`);
      try {
        return [key, parse(message, { ignoreTag: true, shouldParseSkeletons: true })];
      } catch (error) {
        throw new Error(`${file}: "${key}" is not ICU MessageFormat (${String(error)})`);
      }
    }),
  );
}

/**
 * What the apps' runtime (`@frontdesk/messages`) takes: text alone stays a string, so only
 * messages with arguments need the formatter at run time.
 */
function compiled(messages: Record<string, MessageFormatElement[]>): Catalogue {
  return Object.fromEntries(
    Object.entries(messages).map(([key, elements]) => {
      const [only] = elements;
      if (elements.length === 0) return [key, ''];
      if (elements.length === 1 && only?.type === TYPE.literal) return [key, only.value];
      return [key, elements];
    }),
  );
}

/**
 * Every catalogue, checked against the first: the same keys, and each message with the same
 * arguments of the same kinds (a translation that drops `{count}` or turns a plural into text
 * fails the build, naming the key).
 */
export function compiledCatalogues(folder: string): Record<string, Catalogue> {
  const [reference, ...others] = LANGUAGES;
  const base = parsedCatalogue(folder, reference);
  const catalogues: Record<string, Catalogue> = { [reference]: compiled(base) };
  for (const language of others) {
    const messages = parsedCatalogue(folder, language);
    for (const key of Object.keys(base)) {
      const translation = messages[key];
      const original = base[key];
      if (!translation || !original) throw new Error(`${language}.json lacks "${key}"`);
      const same = isStructurallySame(original, translation);
      if (!same.success) {
        throw new Error(`${language}.json "${key}": ${same.error?.message ?? 'other arguments'}`);
      }
    }
    const extra = Object.keys(messages).filter((key) => !(key in base));
    if (extra.length > 0)
      throw new Error(`${language}.json has keys ${reference}.json lacks: ${extra.join(', ')}`);
    catalogues[language] = compiled(messages);
  }
  return catalogues;
}

/** Where an app keeps its catalogues. */
export interface CatalogueOptions {
  /** The app's name, which names the plugin. */
  app: string;
  /** The folder of `<language>.json` files (what translators edit). */
  folder: string;
}

/**
 * `virtual:messages/<language>`: the app's catalogue parsed at build time, so the page ships the
 * formatter without its parser. Each language is a module of its own, so a page loads only the
 * languages it speaks. The name is the same in every app (a build holds one app's catalogues):
 * the apps' shared runtime, `@frontdesk/messages`, imports them by it.
 */
export function messageCatalogues({ app, folder }: CatalogueOptions): Plugin {
  const prefix = 'virtual:messages/';
  return {
    name: `frontdesk:message-catalogues:${app}`,
    resolveId: (id) => (id.startsWith(prefix) ? `\0${id}` : null),
    load(id) {
      if (!id.startsWith(`\0${prefix}`)) return null;
      const language = id.slice(prefix.length + 1);
      for (const each of LANGUAGES) this.addWatchFile(resolve(folder, `${each}.json`));
      const catalogue = compiledCatalogues(folder)[language];
      if (!catalogue) throw new Error(`No catalogue ${language}.json in ${folder}`);
      return `export default ${JSON.stringify(catalogue)};`;
    },
  };
}

/** The parser is needed at build time only (above); the page's formatter takes parsed messages. */
export const formatterWithoutParser = {
  find: /^@formatjs\/icu-messageformat-parser$/,
  replacement: '@formatjs/icu-messageformat-parser/no-parser.js',
};
