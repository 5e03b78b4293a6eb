import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { GuestLogin } from '@frontdesk/protocol';

/** spec §3 "Guest auth": latitude and longitude are kept as text. */
export type GuestLocation = { latitude: string; longitude: string };

export type GuestAuthState = {
  /** spec §1: fingerprint + separator + suffix, kept both as username and as credential. */
  username: string | null;
  credential: string | null;
  access_token: string | null;
  jabberusername: string | null;
  /** What the XMPP server and Janus accept (minted by the API at login). */
  services: Pick<GuestLogin, 'xmpp' | 'janusToken' | 'expiresAt'> | null;
  location: GuestLocation | null;
};

const initialState: GuestAuthState = {
  username: null,
  credential: null,
  access_token: null,
  jabberusername: null,
  services: null,
  location: null,
};

export const guestAuthSlice = createSlice({
  name: 'guestAuth',
  initialState,
  reducers: {
    usernameComputed(state, action: PayloadAction<string>) {
      state.username = action.payload;
      state.credential = action.payload;
    },
    guestSignedIn(state, action: PayloadAction<GuestLogin>) {
      const { access_token, jabberusername, xmpp, janusToken, expiresAt } = action.payload;
      state.access_token = access_token;
      state.jabberusername = jabberusername;
      state.services = { xmpp, janusToken, expiresAt };
    },
    locationFound(state, action: PayloadAction<GuestLocation>) {
      state.location = action.payload;
    },
  },
});

export const { usernameComputed, guestSignedIn, locationFound } = guestAuthSlice.actions;
