import { intlLocale } from '../../i18n/messages.ts';
import {
  adminRoutes,
  type ApiClient,
  ApiRequestError,
  type NewCompany,
  type OperatorCompany,
  type OperatorCreatedCompany,
  type OperatorLogin,
} from '@frontdesk/protocol';

/**
 * The operator routes (decision 0017) with the session's bearer token: an `op_…` token that only
 * these routes accept, never a staff one.
 */
export function operatorRequests(api: ApiClient, session: OperatorLogin) {
  const { token } = session;
  return {
    companies: async (): Promise<OperatorCompany[]> =>
      (await api(adminRoutes.operatorCompanies, { token })).data,
    createCompany: async (body: NewCompany): Promise<OperatorCreatedCompany> =>
      (await api(adminRoutes.createCompany, { token, body })).data,
    signOut: async (): Promise<void> => {
      await api(adminRoutes.operatorLogout, { token });
    },
  };
}

export type OperatorRequests = ReturnType<typeof operatorRequests>;

/**
 * Whether the API refused the token (expired after 8 hours, signed out elsewhere, the operator
 * deactivated): the page then goes back to its sign-in.
 */
export const sessionEnded = (error: unknown): boolean =>
  error instanceof ApiRequestError && error.status === 401;

/** The operator's own time zone: operators belong to no company, so times are in theirs. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** An instant as a date and a time of day in the browser's zone, naming the zone. */
export function formatInstant(iso: string): string {
  const when = new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium', timeStyle: 'short' });
  return `${when.format(new Date(iso))} (${browserTimeZone()})`;
}

/** An instant's calendar date in the browser's zone. */
export function formatDate(iso: string): string {
  return new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium' }).format(new Date(iso));
}

/** Where a company's guests and staff go, on this server (what the operator hands over). */
export function companyLinks(companyId: number) {
  const { origin } = window.location;
  return { guestPage: `${origin}/?company=${companyId}`, console: `${origin}/console/` };
}
