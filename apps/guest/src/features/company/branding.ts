import {
  brandedTitle,
  brandingVariables,
  shownLanguage,
  type CompanyDetails,
} from '@frontdesk/protocol';
import { languageOf } from '../../i18n/messages.ts';

/**
 * Puts the company's look on the document: language, direction, colours, font, title and icon.
 * Called before the first branded screen renders, so the guest never sees the default look flash.
 * The language and direction are those of the language shown: `requested` (the embed's `?lang=`)
 * over the company's, so Arabic asked of a left-to-right company reads right to left.
 */
export function applyBranding(
  company: CompanyDetails,
  requested?: string,
  doc: Document = document,
): void {
  const root = doc.documentElement;
  const shown = shownLanguage(company, requested);
  root.lang = languageOf(shown.language);
  root.dir = shown.direction;
  for (const [name, value] of Object.entries(brandingVariables(company))) {
    if (value) root.style.setProperty(name, value);
    else root.style.removeProperty(name);
  }
  doc.title = brandedTitle(company);
  if (company.faviconUrl) {
    let icon = doc.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!icon) {
      icon = doc.createElement('link');
      icon.rel = 'icon';
      doc.head.append(icon);
    }
    icon.href = company.faviconUrl;
  }
  // The page may have come with the look already (the API writes it in) and marked it then.
  if (performance.getEntriesByName('frontdesk:branded').length === 0) {
    performance.mark('frontdesk:branded');
  }
}
