import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { GuestLogin, GuestRegistration, ServiceCredentials } from '@frontdesk/protocol';

/** spec §3 "Guest auth": latitude and longitude are kept as text. */
/** Where the guest is (spec §3: as text), and how far off in metres when the browser said. */
export type GuestLocation = { latitude: string; longitude: string; accuracy?: string };

export type GuestAuthState = {
  /** The public name the API gave this guest: call ids, nicks and reports carry it. */
  username: string | null;
  /** SECURITY (decision 0006): the secret that logs this guest in; sent to `login` only. */
  credential: string | null;
  access_token: string | null;
  /** When the access token expires: the guest logs in again a minute before. */
  accessTokenExpiresAt: string | null;
  jabberusername: string | null;
  /** What the XMPP server and Janus accept: the API gives them with a call it lets through. */
  services: ServiceCredentials | null;
  location: GuestLocation | null;
};

const initialState: GuestAuthState = {
  username: null,
  credential: null,
  access_token: null,
  accessTokenExpiresAt: null,
  jabberusername: null,
  services: null,
  location: null,
};

export const guestAuthSlice = createSlice({
  name: 'guestAuth',
  initialState,
  reducers: {
    guestRegistered(state, action: PayloadAction<GuestRegistration>) {
      state.username = action.payload.username;
      state.credential = action.payload.credential;
    },
    guestSignedIn(state, action: PayloadAction<GuestLogin>) {
      state.access_token = action.payload.access_token;
      state.accessTokenExpiresAt = action.payload.accessTokenExpiresAt;
      state.jabberusername = action.payload.jabberusername;
    },
    callServicesGranted(state, action: PayloadAction<ServiceCredentials>) {
      state.services = action.payload;
    },
    locationFound(state, action: PayloadAction<GuestLocation>) {
      state.location = action.payload;
    },
  },
});

export const { guestRegistered, guestSignedIn, callServicesGranted, locationFound } =
  guestAuthSlice.actions;
