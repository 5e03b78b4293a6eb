import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { GuestRoom } from '@frontdesk/protocol';
import type { RoomAuth } from '@frontdesk/chat';

/** spec §3 "Chat-room state". Room addresses are bare JIDs. */
export type ChatRoomState = {
  /** Every room the API lets this guest join (guest-auth/register `guestRooms`). */
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
    roomsRegistered(state, action: PayloadAction<GuestRoom[]>) {
      state.rooms = action.payload;
      state.companyMuc = action.payload.find((r) => r.kind === 'company')?.jid ?? null;
    },
    categoryChosen(state, action: PayloadAction<number>) {
      state.currentCategory = action.payload;
      state.selectedCategoryMuc =
        state.rooms.find((r) => r.kind === 'category' && r.categoryId === action.payload)?.jid ??
        null;
      state.newRoom = state.selectedCategoryMuc;
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

export const { roomsRegistered, categoryChosen, roomJoined } = chatRoomSlice.actions;
