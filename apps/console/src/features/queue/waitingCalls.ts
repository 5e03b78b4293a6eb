import { callSummarySchema, envelope } from '@frontdesk/protocol';
import type { AppStartListening } from '../../app/hooks.ts';
import { describeError } from '../../app/errors.ts';
import { roomChanged, waitingCallsFailed, waitingCallsLoaded } from './queueSlice.ts';

/** Guests often arrive together: one request for a burst of room changes. */
const SETTLE_MS = 300;

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
    effect: async (_action, { dispatch, getState, extra, cancelActiveListeners, delay }) => {
      cancelActiveListeners();
      await delay(SETTLE_MS);
      const token = getState().auth.login?.access_token;
      if (!token) return;
      try {
        const { data } = await extra.api(
          '/calls?status=waiting',
          envelope(callSummarySchema.array()),
          { token },
        );
        dispatch(waitingCallsLoaded(data));
      } catch (error) {
        dispatch(waitingCallsFailed(describeError(error)));
      }
    },
  });
}
