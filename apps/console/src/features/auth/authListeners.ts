import { isAnyOf } from '@reduxjs/toolkit';
import {
  ACCESS_TOKEN_RETRY_MS,
  adminRoutes,
  ApiRequestError,
  msUntilRenewal,
  routes,
} from '@frontdesk/protocol';
import type { AppStartListening } from '../../app/hooks.ts';
import { describeError } from '../../app/errors.ts';
import { t } from '../../i18n/messages.ts';
import { renewSession } from './renewSession.ts';
import {
  accessTokenRenewed,
  resumeRefused,
  resumeRequested,
  passwordChangeRefused,
  passwordChangeRequired,
  passwordChangeSubmitted,
  sessionEnded,
  signedOut,
  signInFailed,
  signInSubmitted,
  signInSucceeded,
  workspaceFailed,
  workspaceLoaded,
} from './authSlice.ts';

function signInMessage(error: unknown): string {
  if (!(error instanceof ApiRequestError)) return describeError(error);
  if (error.code === 'one_time_password_expired') return t('oneTimePasswordExpired');
  if (error.status === 401) return t('signInFailed');
  if (error.status === 429) return t('signInRateLimited');
  if (error.code === 'network') return t('signInUnreachable');
  return error.message;
}

export function authListeners(startListening: AppStartListening): void {
  // A reload or a new tab: the refresh cookie, if the browser has a live one, signs the member in
  // again with all a sign-in gives (decision 0024). Without one, the sign-in page, quietly.
  startListening({
    actionCreator: resumeRequested,
    effect: async (_action, { dispatch, extra }) => {
      try {
        dispatch(signInSucceeded(await renewSession(extra.api)));
      } catch (error) {
        const ended = error instanceof ApiRequestError && error.status === 401;
        dispatch(resumeRefused(ended ? null : signInMessage(error)));
      }
    },
  });

  startListening({
    actionCreator: signInSubmitted,
    effect: async (action, { dispatch, extra }) => {
      try {
        const { data } = await extra.api(routes.staffLogin, { body: action.payload });
        dispatch(data.mustChangePassword ? passwordChangeRequired() : signInSucceeded(data));
      } catch (error) {
        dispatch(signInFailed(signInMessage(error)));
      }
    },
  });

  // A one-time password is exchanged for the member's own, which signs them in. A refused new
  // password is chosen again; any other refusal (the one-time password spent or expired) starts
  // the sign-in over.
  startListening({
    actionCreator: passwordChangeSubmitted,
    effect: async (action, { dispatch, extra }) => {
      try {
        const { data } = await extra.api(adminRoutes.changePassword, { body: action.payload });
        dispatch(signInSucceeded(data));
      } catch (error) {
        const field = error instanceof ApiRequestError ? error.fields.newPassword : undefined;
        dispatch(
          field
            ? passwordChangeRefused(t('newPasswordRefused', { reason: field }))
            : signInFailed(signInMessage(error)),
        );
      }
    },
  });

  // The company gives the rooms and categories; the config says where chat and media are.
  startListening({
    actionCreator: signInSucceeded,
    effect: async (action, { dispatch, extra }) => {
      try {
        const [company, config] = await Promise.all([
          extra.api(routes.company, { params: { id: String(action.payload.user.companyId) } }),
          extra.api(routes.config),
        ]);
        dispatch(workspaceLoaded({ company: company.data, config: config.data }));
      } catch (error) {
        dispatch(workspaceFailed(t('workspaceFailed', { reason: describeError(error) })));
      }
    },
  });

  // The access token lasts minutes: renew it with the refresh cookie a minute before it expires
  // (the token works once; the answer sets the next, and `renewSession` keeps the tabs from
  // spending one twice). While the API cannot be reached, try again every few seconds; when it
  // says the session is over, sign out with that reason.
  startListening({
    matcher: isAnyOf(signInSucceeded, accessTokenRenewed),
    effect: async (_action, { dispatch, getState, delay, cancelActiveListeners, extra }) => {
      cancelActiveListeners();
      const login = getState().auth.login;
      if (!login) return;
      await delay(msUntilRenewal(login.accessTokenExpiresAt));
      for (;;) {
        if (getState().auth.login?.access_token !== login.access_token) return;
        try {
          const data = await renewSession(extra.api);
          dispatch(accessTokenRenewed(data));
          // The chat's token lasts about as long: its next reconnection takes the new one.
          extra.connections.chat?.setToken(data.xmpp.password);
          return;
        } catch (error) {
          if (error instanceof ApiRequestError && error.status === 401) {
            await extra.connections.closeAll();
            dispatch(sessionEnded(t('sessionEnded')));
            return;
          }
          await delay(ACCESS_TOKEN_RETRY_MS);
        }
      }
    },
  });

  startListening({
    actionCreator: signedOut,
    effect: async (_action, { extra, getOriginalState }) => {
      const token = getOriginalState().auth.login?.access_token;
      await extra.connections.closeAll();
      // SECURITY: sign-out ends the session at the API too, not only in this tab.
      if (token) {
        await extra.api(routes.logout, { token }).catch(() => undefined);
      }
    },
  });
}
