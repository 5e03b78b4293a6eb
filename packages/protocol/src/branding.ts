import type { CompanyDetails } from './company.ts';

/**
 * The CSS custom properties a company's colours, font and background feed (the guest app's
 * global.css reads them), `null` where the company keeps the app's own. The API writes them into
 * the page it serves and the guest app sets them again when it loads the company, so both agree.
 * A value with `;` is left out: it could only end the declaration it belongs to.
 */
export function brandingVariables(company: CompanyDetails): Record<string, string | null> {
  const variables: Record<string, string | null> = {
    '--fd-page-bg': company.backgroundColor,
    '--fd-page-bg-image': company.backgroundImgUrl
      ? `url("${encodeURI(company.backgroundImgUrl)}")`
      : null,
    '--fd-text': company.textColor,
    '--fd-font': company.fontFamily,
    '--fd-category-bg': company.categoryBackgroundColor,
    '--fd-category-text': company.categoryTextColor,
  };
  for (const [name, value] of Object.entries(variables)) {
    if (value?.includes(';')) variables[name] = null;
  }
  return variables;
}

/** The page title a company's pages carry. */
export const brandedTitle = (company: CompanyDetails): string =>
  company.websiteTitle ?? company.name;
