import {
  brandedTitle,
  brandingVariables,
  shownLanguage,
  type CompanyDetails,
} from '@frontdesk/protocol';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The one inline script of the branded page; the page's CSP allows it by its hash. */
export const BRANDED_PAGE_SCRIPT = "performance.mark('frontdesk:branded')";

/** The company's colours, font and background as the `style` of `<html>` (CSP hashes it). */
export function brandedStyle(company: CompanyDetails): string {
  return Object.entries(brandingVariables(company))
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([name, value]) => `${name}:${value}`)
    .join(';');
}

/**
 * The guest app's index.html with the company's look already in it: language, direction,
 * colours, font, background, title and icon, and the `frontdesk:branded` mark the app would
 * otherwise set once its code has run and fetched the company. On a slow phone that is the
 * difference between a page in the company's colours at once and a plain one for a second or
 * two. Everything written is escaped for where it goes; a template that does not have the
 * expected `<html …>` and `</head>` is answered unchanged.
 */
export function brandGuestPage(
  html: string,
  company: CompanyDetails,
  /** `?lang=` (the embed's locale, decision 0021): its language and direction over the company's. */
  requestedLanguage?: string,
): string {
  const style = brandedStyle(company);
  const shown = shownLanguage(company, requestedLanguage);
  const openingTag = /<html[^>]*>/;
  if (!openingTag.test(html) || !html.includes('</head>')) return html;
  const head = [
    `<title>${escapeHtml(brandedTitle(company))}</title>`,
    company.faviconUrl ? `<link rel="icon" href="${escapeHtml(company.faviconUrl)}" />` : '',
    `<script>${BRANDED_PAGE_SCRIPT}</script>`,
  ].join('');
  return html
    .replace(
      openingTag,
      `<html lang="${escapeHtml(shown.language)}" dir="${shown.direction}"` +
        (style ? ` style="${escapeHtml(style)}">` : '>'),
    )
    .replace(/<title>[^<]*<\/title>/, '')
    .replace('</head>', `${head}</head>`);
}
