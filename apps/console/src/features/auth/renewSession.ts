import { routes, type ApiClient, type Refreshed } from '@frontdesk/protocol';

/** The name of the lock every tab of the console takes around a refresh (decision 0024). */
export const REFRESH_LOCK = 'frontdesk-console-refresh';

/**
 * Exchanges the refresh cookie for a new access token and all a sign-in gives. The tabs of one
 * browser share the cookie, and its token works once: two tabs sending it at the same moment
 * would spend it twice, and the second would be signed out. So a refresh holds a lock every tab
 * of the console shares (Web Locks); the next tab's request starts only after the answer, and its
 * `Set-Cookie` with the next token, arrived. Where the browser has no Web Locks (not a secure
 * context, an old browser) the tab refreshes without it.
 */
export async function renewSession(api: ApiClient): Promise<Refreshed> {
  const refresh = async () => (await api(routes.refresh, { body: {} })).data;
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  return locks ? await locks.request(REFRESH_LOCK, refresh) : refresh();
}
