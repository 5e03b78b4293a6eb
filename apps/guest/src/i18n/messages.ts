/**
 * The guest page's sentences (decision 0026): `catalogues/<language>.json`, formatted by the
 * apps' shared runtime (`@frontdesk/messages`, decision 0036). English comes with the page; a
 * catalogue that fails to load leaves the sentences English rather than stopping the visit.
 */
import { translate as translateIn, type Language, type MessageValues } from '@frontdesk/messages';
import type englishSource from './catalogues/en.json';

export { languageOf, loadLanguage, type Language, type MessageValues } from '@frontdesk/messages';

/** A sentence of the guest app: a key of catalogues/en.json, which every catalogue repeats. */
export type MessageKey = keyof typeof englishSource;

/** A sentence in `language` (English until its catalogue has loaded), its arguments filled. */
export const translate: (language: Language, key: MessageKey, values?: MessageValues) => string =
  translateIn;
