import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { GuestRoom } from '@frontdesk/protocol';
import type { RoomAuth } from '@frontdesk/chat';

/**
 * spec §3 "Chat-room state". Room addresses are bare JIDs. A guest shares no room with other
 * guests (decision 0010): `rooms` (registration's `guestRooms`) and `companyMuc` stay empty, and
 * the guest waits for its category in its own call's room, `selectedCategoryMuc`.
 */
export type ChatRoomState = {
  rooms: GuestRoom[];
  companyMuc: string | null;
  selectedCategoryMuc: string | null;
  currentCategory: number | null;
  /** The room the guest is in now, and the one it moves to on a transfer. */
  activeRoom: string | null;
  newRoom: string | null;
  isRoomAuthed: RoomAuth;
};

const initialState: ChatRoomState = {
  rooms: [],
  companyMuc: null,
  selectedCategoryMuc: null,
  currentCategory: null,
  activeRoom: null,
  newRoom: null,
  isRoomAuthed: { status: false, tries: 0 },
};

export const chatRoomSlice = createSlice({
  name: 'chatRoom',
  initialState,
  reducers: {
    /** The guest is about to wait for `categoryId` in the room of its call `jid`. */
    callRoomChosen(state, action: PayloadAction<{ categoryId: number; jid: string }>) {
      state.currentCategory = action.payload.categoryId;
      state.selectedCategoryMuc = action.payload.jid;
      state.newRoom = action.payload.jid;
    },
    roomJoined(state, action: PayloadAction<{ jid: string; auth: RoomAuth }>) {
      state.isRoomAuthed = action.payload.auth;
      if (action.payload.auth.status) {
        state.activeRoom = action.payload.jid;
        state.newRoom = null;
      }
    },
  },
});

export const { callRoomChosen, roomJoined } = chatRoomSlice.actions;
