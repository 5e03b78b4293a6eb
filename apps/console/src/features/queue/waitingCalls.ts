import { callSummarySchema, envelope } from '@frontdesk/protocol';
import type { AppListenerApi, AppStartListening } from '../../app/hooks.ts';
import { describeError } from '../../app/errors.ts';
import { roomChanged, waitingCallsFailed, waitingCallsLoaded } from './queueSlice.ts';

/** Guests often arrive together: one request for a burst of room changes. */
const SETTLE_MS = 300;
/** Asked a little after an offer ends, so the API's clock has surely moved to the next turn. */
const TURN_MARGIN_MS = 250;

/**
 * The queue comes from the rooms' presences; the API adds what presence cannot carry
 * (welcome-form answers, call type, previous calls) and the guest's username that a claim
 * needs. Asked again whenever a guest waits whom the last answer did not list.
 */
export function waitingCallsListeners(startListening: AppStartListening): void {
  startListening({
    predicate: (action, state) =>
      roomChanged.match(action) &&
      action.payload.waiting.some((guest) => !state.queue.calls[guest.nick]),
    effect: async (_action, api) => {
      api.cancelActiveListeners();
      await api.delay(SETTLE_MS);
      await loadWaitingCalls(api);
    },
  });

  // Round robin: each offer ends at its `until`, when the API names the next agent; ask then.
  startListening({
    actionCreator: waitingCallsLoaded,
    effect: async (action, api) => {
      api.cancelActiveListeners();
      const ends = action.payload.flatMap((call) =>
        call.offer ? [Date.parse(call.offer.until)] : [],
      );
      if (ends.length === 0) return;
      await api.delay(Math.max(0, Math.min(...ends) - Date.now()) + TURN_MARGIN_MS);
      await loadWaitingCalls(api);
    },
  });
}

/** `GET /api/calls?status=waiting`: the whole list, so calls that ended drop out. */
async function loadWaitingCalls({ dispatch, getState, extra }: AppListenerApi) {
  const token = getState().auth.login?.access_token;
  if (!token) return;
  try {
    const { data } = await extra.api('/calls?status=waiting', envelope(callSummarySchema.array()), {
      token,
    });
    dispatch(waitingCallsLoaded(data));
  } catch (error) {
    dispatch(waitingCallsFailed(describeError(error)));
  }
}
