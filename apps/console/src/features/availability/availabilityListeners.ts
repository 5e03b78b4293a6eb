import {
  AVAILABILITY_REPORT_INTERVAL_MS,
  routes,
  type AgentAvailability,
} from '@frontdesk/protocol';
import type { AppStartListening } from '../../app/hooks.ts';
import type { ConsoleServices } from '../../app/services.ts';
import { workspaceLoaded } from '../auth/authSlice.ts';
import { colleaguesLoaded, selectAvailability, SHOW_OF } from './availabilitySlice.ts';

/**
 * Round robin counts only agents whose report is fresh; a failed one is simply repeated at the
 * next change or period, and meanwhile the queue still lists every guest.
 */
function report(extra: ConsoleServices, token: string, status: AgentAvailability) {
  return extra
    .api(routes.availability, { token, body: { status } })
    .catch((error: unknown) => console.warn('[availability] report failed', error));
}

export function availabilityListeners(startListening: AppStartListening): void {
  // The rooms see it at once (XMPP show); the chat session sends it with every room presence.
  startListening({
    predicate: (_action, state, previous) =>
      selectAvailability(state) !== selectAvailability(previous),
    effect: (_action, { getState, extra }) => {
      extra.connections.chat?.setAvailability(SHOW_OF[selectAvailability(getState())]);
    },
  });

  // The API hears it on every change and every period while signed in, and "away" on sign-out.
  startListening({
    actionCreator: workspaceLoaded,
    effect: async (_action, { getState, condition, extra, cancelActiveListeners }) => {
      cancelActiveListeners();
      const token = getState().auth.login?.access_token;
      if (!token) return;
      for (;;) {
        const status = selectAvailability(getState());
        await report(extra, token, status);
        await condition(
          (_a, state) => selectAvailability(state) !== status || state.auth.login === null,
          AVAILABILITY_REPORT_INTERVAL_MS,
        );
        if (getState().auth.login === null) {
          await report(extra, token, 'away');
          return;
        }
      }
    },
  });

  startListening({
    actionCreator: workspaceLoaded,
    effect: async (_action, { dispatch, getState, extra }) => {
      const token = getState().auth.login?.access_token;
      if (!token) return;
      try {
        const { data } = await extra.api(routes.staff, { token });
        dispatch(colleaguesLoaded(data));
      } catch (error) {
        // Without names the console shows the colleagues' nicks.
        console.warn('[availability] loading the staff failed', error);
      }
    },
  });
}
