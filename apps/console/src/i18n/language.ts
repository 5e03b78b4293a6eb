import { currentLanguage, languageOf, switchLanguage, type Language } from './messages.ts';

/**
 * Which language the console speaks (decision 0029): the staff member's own choice, kept in this
 * browser under their id; before anyone has signed in, the last choice made in this browser,
 * else the browser's language.
 */
const LAST = 'frontdesk.console.language';
const ofStaff = (staffId: number | string) => `${LAST}.${staffId}`;

function read(key: string): Language | null {
  try {
    const stored = localStorage.getItem(key);
    return stored === 'en' || stored === 'ar' ? stored : null;
  } catch {
    return null;
  }
}

/** The language to start in, before the sign-in is known. */
export const initialLanguage = (): Language => read(LAST) ?? languageOf(navigator.language);

/** The language a staff member chose, if they ever did in this browser. */
export const staffLanguage = (staffId: number | string): Language | null => read(ofStaff(staffId));

const listeners = new Set<() => void>();

/** For `useSyncExternalStore`: the root renders the console again in a new language. */
export function subscribeLanguage(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Speaks `language` from now on (once its catalogue has come) and tells the root. */
export async function changeLanguage(language: Language): Promise<void> {
  if (language === currentLanguage()) return;
  await switchLanguage(language);
  for (const listener of listeners) listener();
}

/** The staff member's choice: spoken now, and remembered for them and for this browser. */
export async function chooseLanguage(language: Language, staffId?: number | string): Promise<void> {
  try {
    localStorage.setItem(LAST, language);
    if (staffId !== undefined) localStorage.setItem(ofStaff(staffId), language);
  } catch {
    // A browser that keeps nothing still switches; the choice lasts until the page is left.
  }
  await changeLanguage(language);
}
