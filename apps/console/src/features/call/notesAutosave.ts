import type { AppStartListening } from '../../app/hooks.ts';
import { callDismissed, notesEdited, notesFailed, notesSubmitted } from './callSlice.ts';

/** A pause in typing this long saves the notes (issue 19 item 3). */
export const NOTES_PAUSE_MS = 800;
/** A failed save is tried again after this long, unless the agent types first. */
export const NOTES_RETRY_MS = 5_000;

const DRAFT_PREFIX = 'frontdesk.console.notes.';

/**
 * The notes as last typed in this tab, by call: a reload mid-call (decision 0027) gets them back
 * even if the last keystrokes had not reached the API. `sessionStorage`: the tab's own, gone
 * with it.
 */
export const notesDraft = {
  read(callId: string): string | null {
    try {
      return sessionStorage.getItem(DRAFT_PREFIX + callId);
    } catch {
      return null;
    }
  },
  write(callId: string, notes: string): void {
    try {
      sessionStorage.setItem(DRAFT_PREFIX + callId, notes);
    } catch {
      // Storage full or refused: the API still gets the notes.
    }
  },
  forget(callId: string): void {
    try {
      sessionStorage.removeItem(DRAFT_PREFIX + callId);
    } catch {
      // As above.
    }
  },
};

/** Notes that save as the agent types: after a pause, again after a failure. */
export function notesAutosaveListeners(startListening: AppStartListening): void {
  startListening({
    actionCreator: notesEdited,
    effect: async (action, { dispatch, getState, cancelActiveListeners, delay }) => {
      const callId = getState().call.call?.callId;
      if (callId) notesDraft.write(callId, action.payload);
      // Each keystroke starts the pause again.
      cancelActiveListeners();
      await delay(NOTES_PAUSE_MS);
      if (getState().call.call?.callId === callId) dispatch(notesSubmitted());
    },
  });

  startListening({
    actionCreator: notesFailed,
    effect: async (_action, { dispatch, getState, cancelActiveListeners, delay }) => {
      cancelActiveListeners();
      await delay(NOTES_RETRY_MS);
      if (getState().call.notesStatus === 'failed') dispatch(notesSubmitted());
    },
  });

  startListening({
    actionCreator: callDismissed,
    effect: (_action, { getOriginalState }) => {
      const callId = getOriginalState().call.call?.callId;
      if (callId) notesDraft.forget(callId);
    },
  });
}
