import { createAction, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ClaimedCall } from '@frontdesk/protocol';
import type { MediaState } from '@frontdesk/media';
import { callClaimed } from '../queue/queueSlice.ts';

/** `claimed` until the media is up, `active` through holds, `ended` shows how it ended. */
export type CallPhase = 'idle' | 'connecting' | 'active' | 'ended';
/** The request under way from the call's controls; their buttons wait for it. */
export type CallAction = 'hold' | 'resume' | 'transfer' | 'end';
export type CallOutcome = 'completed' | 'guestLeft' | 'transferred';
export type TransferTarget = { toAgentJabberUsername: string } | { toCategoryId: number };
/**
 * A console opened on a call's address with no call in hand (a reload mid-call, decision 0027):
 * the call being taken up again, or why it could not be.
 */
export type CallRejoin =
  { callId: string; status: 'rejoining' } | { callId: string; status: 'failed'; message: string };

export type CallState = {
  phase: CallPhase;
  call: ClaimedCall | null;
  /** The category room where the guest waited: our call presences go there. */
  roomJid: string | null;
  media: MediaState | null;
  /** The guest's presence has named this call (docs/protocol.md step 4). */
  guestJoined: boolean;
  /**
   * Whether the guest is in the call's chat room (naming this call once it had): `null` while
   * this console cannot tell (its own chat is down, or it is out of the room). decision 0025.
   */
  guestInRoom: boolean | null;
  /** The guest's media has reached this console once: from then on its absence is news. */
  guestMediaSeen: boolean;
  /**
   * Since when the guest is missing from the chat room or the media (`Date.now()`), and after how
   * long away it counts as gone (`null`: never, its media alone recovers); `null` while present.
   */
  guestAway: { since: number; goneAfterMs: number | null } | null;
  /** The guest was away long enough to be gone; it may still come back within a minute. */
  guestGone: boolean;
  onHold: boolean;
  pending: CallAction | null;
  /** The last failure, in the agent's words. */
  error: string | null;
  outcome: CallOutcome | null;
  notes: string;
  notesStatus: 'idle' | 'saving' | 'saved' | 'failed';
  notesError: string | null;
  rejoin: CallRejoin | null;
};

const initialState: CallState = {
  phase: 'idle',
  call: null,
  roomJid: null,
  media: null,
  guestJoined: false,
  guestInRoom: null,
  guestMediaSeen: false,
  guestAway: null,
  guestGone: false,
  onHold: false,
  pending: null,
  error: null,
  outcome: null,
  notes: '',
  notesStatus: 'idle',
  notesError: null,
  rejoin: null,
};

export const callSlice = createSlice({
  name: 'call',
  initialState,
  reducers: {
    mediaStateChanged(state, action: PayloadAction<MediaState>) {
      state.media = action.payload;
      if (action.payload.feeds.length > 0) state.guestMediaSeen = true;
      if (state.phase === 'connecting' && action.payload.status === 'connected') {
        state.phase = 'active';
      }
    },
    guestJoinedCall(state) {
      state.guestJoined = true;
    },
    guestRoomSeen(state, action: PayloadAction<boolean | null>) {
      state.guestInRoom = action.payload;
    },
    /** The guest went away, came back, or its absence now counts differently (decision 0025). */
    guestAbsenceChanged(
      state,
      action: PayloadAction<{ away: boolean; goneAfterMs: number | null; at: number }>,
    ) {
      const { away, goneAfterMs, at } = action.payload;
      if (!away) {
        state.guestAway = null;
        state.guestGone = false;
        return;
      }
      state.guestAway = { since: state.guestAway?.since ?? at, goneAfterMs };
    },
    guestGoneNoticed(state) {
      if (state.guestAway) state.guestGone = true;
    },
    /** The page was opened on this call's address with no call in hand (decision 0027). */
    callRejoinRequested(state, action: PayloadAction<string>) {
      if (state.phase === 'idle') state.rejoin = { callId: action.payload, status: 'rejoining' };
    },
    callRejoinFailed(state, action: PayloadAction<string>) {
      if (state.rejoin)
        state.rejoin = { ...state.rejoin, status: 'failed', message: action.payload };
    },
    rejoinNoticeDismissed(state) {
      state.rejoin = null;
    },
    mediaFailed(state, action: PayloadAction<string>) {
      state.error = action.payload;
    },
    holdClicked(state) {
      state.pending = 'hold';
    },
    resumeClicked(state) {
      state.pending = 'resume';
    },
    holdChanged(state, action: PayloadAction<boolean>) {
      state.onHold = action.payload;
      state.pending = null;
      state.error = null;
    },
    transferSubmitted: {
      reducer(state) {
        state.pending = 'transfer';
      },
      prepare: (target: TransferTarget) => ({ payload: target }),
    },
    endClicked(state) {
      state.pending = 'end';
    },
    callActionFailed(state, action: PayloadAction<string>) {
      state.pending = null;
      state.error = action.payload;
    },
    callEnded(state, action: PayloadAction<CallOutcome>) {
      state.phase = 'ended';
      state.pending = null;
      state.outcome = action.payload;
      state.onHold = false;
    },
    callDismissed() {
      return initialState;
    },
    notesEdited(state, action: PayloadAction<string>) {
      state.notes = action.payload;
      state.notesStatus = 'idle';
    },
    notesSubmitted(state) {
      state.notesStatus = 'saving';
      state.notesError = null;
    },
    /** The notes as they were sent: saved only if the agent typed nothing since. */
    notesSaved(state, action: PayloadAction<string>) {
      state.notesStatus = state.notes === action.payload ? 'saved' : 'idle';
    },
    notesFailed(state, action: PayloadAction<string>) {
      state.notesStatus = 'failed';
      state.notesError = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(callClaimed, (_state, { payload: { call, roomJid, onHold } }) => ({
      ...initialState,
      phase: 'connecting',
      call,
      roomJid,
      onHold: onHold ?? false,
    }));
  },
});

export const {
  mediaStateChanged,
  guestJoinedCall,
  guestRoomSeen,
  guestAbsenceChanged,
  guestGoneNoticed,
  callRejoinRequested,
  callRejoinFailed,
  rejoinNoticeDismissed,
  mediaFailed,
  holdClicked,
  resumeClicked,
  holdChanged,
  transferSubmitted,
  endClicked,
  callActionFailed,
  callEnded,
  callDismissed,
  notesEdited,
  notesSubmitted,
  notesSaved,
  notesFailed,
} = callSlice.actions;

/** Control events that change nothing in the store: the media adapter answers with its state. */
export const muteToggled = createAction<'audio' | 'video'>('call/muteToggled');
export const cameraChosen = createAction<string>('call/cameraChosen');
export const microphoneChosen = createAction<string>('call/microphoneChosen');
