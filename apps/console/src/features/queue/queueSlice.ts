import { createAction, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Occupant, RoomSnapshot, WaitingGuest } from '@frontdesk/chat';
import type { CallSummary, ClaimedCall } from '@frontdesk/protocol';
import type { RootState } from '../../app/store.ts';
import { roomJoinFailed } from '../chat/chatSlice.ts';

/**
 * The company room (every agent, availability) or a call's room (its guest, waiting or in the
 * call, and the company's agents; decision 0010).
 */
export type RoomKind = 'company' | 'call';

export type RoomView = {
  jid: string;
  kind: RoomKind;
  categoryId: number | null;
  /** A call room's call and its guest's jabber username (the API's word); null otherwise. */
  callId: string | null;
  guest: string | null;
  joined: boolean;
  /** Why the last join failed, in the agent's words; null while all is well. */
  error: string | null;
  occupants: Occupant[];
  /** The guests this agent may take, longest-waiting first (`agentQueue`). */
  waiting: WaitingGuest[];
};

/** What became of this agent's last Accept. */
export type ClaimAttempt =
  | { nick: string; status: 'claiming' }
  | { nick: string; status: 'lost'; message: string }
  | { nick: string; status: 'failed'; message: string };

export type QueueState = {
  rooms: Record<string, RoomView>;
  /** What the API knows of each waiting guest's call, by the guest's jabber username. */
  calls: Record<string, CallSummary>;
  /** Why the call details could not be loaded; the queue itself still shows. */
  callsError: string | null;
  claim: ClaimAttempt | null;
};

function dropRoom(state: QueueState, jid: string): void {
  state.rooms = Object.fromEntries(Object.entries(state.rooms).filter(([key]) => key !== jid));
}

const initialState: QueueState = { rooms: {}, calls: {}, callsError: null, claim: null };

/** The claim won (docs/protocol.md step 3): the call feature takes the call from here. */
export const callClaimed = createAction<{
  call: ClaimedCall;
  roomJid: string;
  /** A call taken up again after a reload (decision 0027) that its agent had put on hold. */
  onHold?: boolean;
}>('queue/callClaimed');

export const queueSlice = createSlice({
  name: 'queue',
  initialState,
  reducers: {
    /** The company room, before joining it; call rooms come and go with the waiting calls. */
    roomsAssigned(state, action: PayloadAction<{ jid: string }[]>) {
      state.rooms = Object.fromEntries(
        action.payload.map(({ jid }) => [
          jid,
          {
            jid,
            kind: 'company' as const,
            categoryId: null,
            callId: null,
            guest: null,
            joined: false,
            error: null,
            occupants: [],
            waiting: [],
          },
        ]),
      );
    },
    /** A waiting call's room, as this agent starts joining it. */
    callRoomAdded(
      state,
      action: PayloadAction<{
        jid: string;
        categoryId: number | null;
        callId: string;
        guest: string;
      }>,
    ) {
      state.rooms[action.payload.jid] ??= {
        ...action.payload,
        kind: 'call',
        joined: false,
        error: null,
        occupants: [],
        waiting: [],
      };
    },
    /** A call room this agent left: the call was taken, ended, or its own call is over. */
    callRoomRemoved(state, action: PayloadAction<string>) {
      if (state.rooms[action.payload]?.kind === 'call') dropRoom(state, action.payload);
    },
    roomChanged(state, action: PayloadAction<{ snapshot: RoomSnapshot; waiting: WaitingGuest[] }>) {
      const { snapshot, waiting } = action.payload;
      const room = state.rooms[snapshot.jid];
      if (!room) return;
      room.joined = snapshot.joined;
      room.occupants = snapshot.occupants;
      room.waiting = waiting;
      if (snapshot.joined) room.error = null;
    },
    /** `GET /api/calls?status=waiting`: the whole list, so calls that ended drop out. */
    waitingCallsLoaded(state, action: PayloadAction<CallSummary[]>) {
      state.calls = Object.fromEntries(
        action.payload.map((call) => [call.guestJabberUsername, call]),
      );
      state.callsError = null;
    },
    waitingCallsFailed(state, action: PayloadAction<string>) {
      state.callsError = action.payload;
    },
    acceptClicked(state, action: PayloadAction<{ nick: string; categoryId: number }>) {
      state.claim = { nick: action.payload.nick, status: 'claiming' };
    },
    /** 409 `already_claimed`: another agent won (docs/protocol.md step 3). */
    claimLost(state, action: PayloadAction<{ nick: string; message: string }>) {
      state.claim = { ...action.payload, status: 'lost' };
    },
    claimFailed(state, action: PayloadAction<{ nick: string; message: string }>) {
      state.claim = { ...action.payload, status: 'failed' };
    },
    claimNoticeDismissed(state) {
      state.claim = null;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(callClaimed, (state) => {
      state.claim = null;
    });
    builder.addCase(roomJoinFailed, (state, action) => {
      const room = state.rooms[action.payload.jid];
      // A call's room that is gone (the guest left first) is no failure of the agent's.
      if (room?.kind === 'call') dropRoom(state, action.payload.jid);
      else if (room) room.error = action.payload.message;
    });
  },
});

export const {
  roomsAssigned,
  callRoomAdded,
  callRoomRemoved,
  roomChanged,
  waitingCallsLoaded,
  waitingCallsFailed,
  acceptClicked,
  claimLost,
  claimFailed,
  claimNoticeDismissed,
} = queueSlice.actions;

/** How many guests this agent could take now, across its categories (the tab title badge). */
export const selectWaitingCount = (state: RootState) =>
  Object.values(state.queue.rooms).reduce((count, room) => count + room.waiting.length, 0);
