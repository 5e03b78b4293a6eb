import {
  ApiRequestError,
  clientConfigSchema,
  companyDetailsSchema,
  envelope,
  staffLoginSchema,
} from '@frontdesk/protocol';
import type { AppStartListening } from '../../app/hooks.ts';
import { describeError } from '../../app/errors.ts';
import { t } from '../../i18n/messages.ts';
import {
  signedOut,
  signInFailed,
  signInSubmitted,
  signInSucceeded,
  workspaceFailed,
  workspaceLoaded,
} from './authSlice.ts';

function signInMessage(error: unknown): string {
  if (!(error instanceof ApiRequestError)) return describeError(error);
  if (error.status === 401) return t('signInFailed');
  if (error.status === 429) return t('signInRateLimited');
  if (error.code === 'network') return t('signInUnreachable');
  return error.message;
}

export function authListeners(startListening: AppStartListening): void {
  startListening({
    actionCreator: signInSubmitted,
    effect: async (action, { dispatch, extra }) => {
      try {
        const { data } = await extra.api('/auth/login', envelope(staffLoginSchema), {
          method: 'POST',
          body: action.payload,
        });
        dispatch(signInSucceeded(data));
      } catch (error) {
        dispatch(signInFailed(signInMessage(error)));
      }
    },
  });

  // The company gives the rooms and categories; the config says where chat and media are.
  startListening({
    actionCreator: signInSucceeded,
    effect: async (action, { dispatch, extra }) => {
      try {
        const [company, config] = await Promise.all([
          extra.api(`/company/${action.payload.user.companyId}`, envelope(companyDetailsSchema)),
          extra.api('/config', envelope(clientConfigSchema)),
        ]);
        dispatch(workspaceLoaded({ company: company.data, config: config.data }));
      } catch (error) {
        dispatch(workspaceFailed(t('workspaceFailed', { reason: describeError(error) })));
      }
    },
  });

  startListening({
    actionCreator: signedOut,
    effect: async (_action, { extra }) => {
      await extra.connections.closeAll();
    },
  });
}
