import { ACCESS_TOKEN_RETRY_MS, ApiRequestError, routes } from '@frontdesk/protocol';
import { createAppThunk } from '../../app/hooks.ts';
import { guestSignedIn } from './guestAuthSlice.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Logs the guest in again with its credential before its access token (minutes long) runs out,
 * so a long call, its rating and its reports go on. While the API cannot be reached it tries
 * again every few seconds until the old token has expired; a credential the API no longer knows
 * (401) ends the attempts.
 */
export const renewLogin = createAppThunk(
  'guestAuth/renewLogin',
  async (_arg: undefined, { dispatch, getState, extra }) => {
    const { credential, accessTokenExpiresAt } = getState().guestAuth;
    const companyId = getState().page.companyId;
    if (!credential || !accessTokenExpiresAt) return;
    while (Date.now() < Date.parse(accessTokenExpiresAt)) {
      try {
        const { data } = await extra.api(routes.guestLogin, { body: { credential, companyId } });
        dispatch(guestSignedIn(data));
        return;
      } catch (error) {
        if (error instanceof ApiRequestError && error.status === 401) return;
        await wait(ACCESS_TOKEN_RETRY_MS);
      }
    }
  },
);
