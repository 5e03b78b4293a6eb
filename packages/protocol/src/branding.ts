import type { CompanyDetails, CompanySettings } from './company.ts';

/**
 * The CSS custom properties a company's colours, font and background feed (the guest app's
 * global.css reads them), `null` where the company keeps the app's own. The API writes them into
 * the page it serves and the guest app sets them again when it loads the company, so both agree.
 * A value with `;` is left out: it could only end the declaration it belongs to.
 */
export function brandingVariables(company: CompanySettings): Record<string, string | null> {
  const font = fontFamilies(company.fontFamily);
  const variables: Record<string, string | null> = {
    '--fd-page-bg': company.backgroundColor,
    '--fd-page-bg-image': company.backgroundImgUrl
      ? `url("${encodeURI(company.backgroundImgUrl)}")`
      : null,
    '--fd-text': company.textColor,
    '--fd-font': font.named,
    '--fd-font-generic': font.generic,
    '--fd-category-bg': company.categoryBackgroundColor,
    '--fd-category-text': company.categoryTextColor,
  };
  for (const [name, value] of Object.entries(variables)) {
    if (value?.includes(';')) variables[name] = null;
  }
  return variables;
}

const GENERIC_FAMILIES = new Set([
  'serif',
  'sans-serif',
  'monospace',
  'cursive',
  'fantasy',
  'system-ui',
  'ui-serif',
  'ui-sans-serif',
  'ui-monospace',
  'ui-rounded',
]);

/**
 * A company's font list split into its named families and its generic one. The page puts the
 * app's own families (Latin and Arabic) between them: a font made for one script (`Noto Naskh
 * Arabic, serif`) then leaves the other script to a font made for it, not to the browser's
 * generic serif.
 */
function fontFamilies(list: string | null): { named: string | null; generic: string | null } {
  const families = (list ?? '')
    .split(',')
    .map((family) => family.trim())
    .filter(Boolean);
  const last = families.at(-1)?.toLowerCase();
  const generic = last && GENERIC_FAMILIES.has(last) ? last : null;
  const named = generic ? families.slice(0, -1) : families;
  return { named: named.length > 0 ? named.join(', ') : null, generic };
}

/** The page title a company's pages carry. */
export const brandedTitle = (company: CompanyDetails): string =>
  company.websiteTitle ?? company.name;

/** The base of a BCP 47 tag, lower case (`ar-EG` → `ar`). */
const baseLanguage = (tag: string) => tag.toLowerCase().split('-')[0] ?? '';

/**
 * The language a guest page is shown in, and its direction: `requested` (the embedding site's
 * `?lang=`, decision 0021) over the company's. A language other than the company's brings its
 * own direction — Arabic right to left, any other (shown in English by the guest app) left to
 * right; the company's own language keeps the direction the company set. The API writes it into
 * the page it serves and the guest app sets it again, so both agree.
 */
export function shownLanguage(
  company: Pick<CompanySettings, 'language' | 'pageDirection'>,
  requested?: string | null,
): { language: string; direction: 'ltr' | 'rtl' } {
  if (!requested || baseLanguage(requested) === baseLanguage(company.language)) {
    return { language: company.language, direction: company.pageDirection };
  }
  return { language: requested, direction: baseLanguage(requested) === 'ar' ? 'rtl' : 'ltr' };
}
