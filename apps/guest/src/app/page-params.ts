import { pageCompanyId, serviceTypeSchema, type ServiceType } from '@frontdesk/protocol';

/** What the page's address says about this visit (spec §1: company, service type, webview). */
export type PageParams = {
  companyId: number;
  serviceType: ServiceType;
  /** spec §7: a native app's webview asks for H.264 (`?webview=true`). */
  webview: boolean;
  /** Inside the embed loader's iframe: the host page's origin, the only one told our events. */
  parentOrigin: string | null;
  /** `?lang=`: the language the embedding site asked for (a BCP 47 tag), over the company's. */
  language?: string;
};

function originOf(value: string | null): string | null {
  try {
    const url = new URL(value ?? '');
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** Reads `?company=`, `?service=` and `?webview=`; anything unreadable falls back to the default. */
export function readPageParams(search: string): PageParams {
  const query = new URLSearchParams(search);
  const service = serviceTypeSchema.safeParse(query.get('service') ?? '');
  const lang = query.get('lang') ?? '';
  return {
    companyId: pageCompanyId(query.get('company')),
    serviceType: service.success ? service.data : 'Talk',
    webview: query.get('webview') === 'true',
    parentOrigin: originOf(query.get('parent')),
    ...(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(lang) ? { language: lang } : {}),
  };
}
