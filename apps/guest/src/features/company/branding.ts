import type { CompanyDetails } from '@frontdesk/protocol';
import { languageOf } from '../../i18n/messages.ts';

/** CSS custom properties each branded colour and font feeds (see app/global.css). */
const cssVariables = (company: CompanyDetails): Record<string, string | null> => ({
  '--fd-page-bg': company.backgroundColor,
  '--fd-page-bg-image': company.backgroundImgUrl
    ? `url("${encodeURI(company.backgroundImgUrl)}")`
    : null,
  '--fd-text': company.textColor,
  '--fd-font': company.fontFamily,
  '--fd-category-bg': company.categoryBackgroundColor,
  '--fd-category-text': company.categoryTextColor,
});

/**
 * Puts the company's look on the document: language, direction, colours, font, title and icon.
 * Called before the first branded screen renders, so the guest never sees the default look flash.
 */
export function applyBranding(company: CompanyDetails, doc: Document = document): void {
  const root = doc.documentElement;
  root.lang = languageOf(company.language);
  root.dir = company.pageDirection;
  for (const [name, value] of Object.entries(cssVariables(company))) {
    if (value) root.style.setProperty(name, value);
    else root.style.removeProperty(name);
  }
  doc.title = company.websiteTitle ?? company.name;
  if (company.faviconUrl) {
    let icon = doc.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!icon) {
      icon = doc.createElement('link');
      icon.rel = 'icon';
      doc.head.append(icon);
    }
    icon.href = company.faviconUrl;
  }
  performance.mark('frontdesk:branded');
}
