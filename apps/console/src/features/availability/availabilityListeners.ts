import {
  AVAILABILITY_REPORT_INTERVAL_MS,
  availabilityTabMessageSchema,
  routes,
  type AgentAvailability,
  type AvailabilityTabMessage,
} from '@frontdesk/protocol';
import type { AppStartListening } from '../../app/hooks.ts';
import type { ConsoleServices } from '../../app/services.ts';
import { workspaceLoaded } from '../auth/authSlice.ts';
import {
  availabilityChosen,
  availabilitySynced,
  colleaguesLoaded,
  selectAvailability,
  SHOW_OF,
} from './availabilitySlice.ts';

/** The channel the console's tabs of one browser share (same origin only, by the browser). */
export const AVAILABILITY_CHANNEL = 'frontdesk-console-availability';

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
  // Every tab of the agent shows the same availability (issue 19 item 5, decision 0027): a tab
  // tells the others what the agent chose in it, a new tab asks them first. Each tab then says
  // it to the chat server and the API as before, so the rooms and round robin see one agent.
  startListening({
    actionCreator: workspaceLoaded,
    effect: async (_action, { dispatch, getState, take, cancelActiveListeners }) => {
      cancelActiveListeners();
      const staffId = getState().auth.login?.user.id;
      if (staffId === undefined || typeof BroadcastChannel === 'undefined') return;
      const channel = new BroadcastChannel(AVAILABILITY_CHANNEL);
      const say = (message: AvailabilityTabMessage) => channel.postMessage(message);
      channel.onmessage = (event: MessageEvent<unknown>) => {
        // SECURITY: whatever another page of the origin posts is checked, and only this
        // member's is believed.
        const parsed = availabilityTabMessageSchema.safeParse(event.data);
        if (!parsed.success || parsed.data.staffId !== staffId) return;
        const chosen = getState().availability.chosen;
        if (parsed.data.kind === 'ask') {
          say({ kind: 'chosen', staffId, availability: chosen });
        } else if (parsed.data.availability !== chosen) {
          dispatch(availabilitySynced(parsed.data.availability));
        }
      };
      say({ kind: 'ask', staffId });
      try {
        for (;;) {
          const [, state] = await take(
            (action, state) => availabilityChosen.match(action) || state.auth.login === null,
          );
          if (state.auth.login === null) return;
          say({ kind: 'chosen', staffId, availability: state.availability.chosen });
        }
      } finally {
        channel.close();
      }
    },
  });

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
