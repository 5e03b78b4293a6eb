import { brandedTitle, brandingVariables, type CompanyDetails } from '@frontdesk/protocol';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/**
 * The guest app's index.html with the company's look already in it: language, direction,
 * colours, font, background, title and icon, and the `frontdesk:branded` mark the app would
 * otherwise set once its code has run and fetched the company. On a slow phone that is the
 * difference between a page in the company's colours at once and a plain one for a second or
 * two. Everything written is escaped for where it goes; a template that does not have the
 * expected `<html …>` and `</head>` is answered unchanged.
 */
export function brandGuestPage(html: string, company: CompanyDetails): string {
  const style = Object.entries(brandingVariables(company))
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([name, value]) => `${name}:${value}`)
    .join(';');
  const openingTag = /<html[^>]*>/;
  if (!openingTag.test(html) || !html.includes('</head>')) return html;
  const head = [
    `<title>${escapeHtml(brandedTitle(company))}</title>`,
    company.faviconUrl ? `<link rel="icon" href="${escapeHtml(company.faviconUrl)}" />` : '',
    `<script>performance.mark('frontdesk:branded')</script>`,
  ].join('');
  return html
    .replace(
      openingTag,
      `<html lang="${escapeHtml(company.language)}" dir="${company.pageDirection}"` +
        (style ? ` style="${escapeHtml(style)}">` : '>'),
    )
    .replace(/<title>[^<]*<\/title>/, '')
    .replace('</head>', `${head}</head>`);
}
