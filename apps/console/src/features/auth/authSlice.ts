import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ClientConfig, CompanyDetails, Refreshed, StaffLogin } from '@frontdesk/protocol';

/**
 * Who is signed in and the workspace that comes with it: the company (its rooms and
 * categories) and where the chat and media servers are.
 */
export type AuthState = {
  /**
   * `resuming`: a (re)loaded page asks the API whether its refresh cookie still signs the member
   * in (decision 0024), before it shows the sign-in page.
   * `mustChangePassword`: signed in with a one-time password (an invite or a reset), which opens
   * nothing until the member chooses their own (`changingPassword` while that is sent).
   */
  status:
    | 'resuming'
    | 'signedOut'
    | 'signingIn'
    | 'mustChangePassword'
    | 'changingPassword'
    | 'loadingWorkspace'
    | 'ready';
  error: string | null;
  login: StaffLogin | null;
  company: CompanyDetails | null;
  config: ClientConfig | null;
};

const initialState: AuthState = {
  status: 'signedOut',
  error: null,
  login: null,
  company: null,
  config: null,
};

export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    /** The page was (re)loaded or opened in a new tab: resume from the refresh cookie, if any. */
    resumeRequested(state) {
      state.status = 'resuming';
      state.error = null;
    },
    /** Nothing to resume (no cookie, or its session ended): the sign-in page, with no error. */
    resumeRefused(_state, action: PayloadAction<string | null>) {
      return { ...initialState, error: action.payload };
    },
    // The credentials travel in the action only, for the sign-in listener; state never keeps them.
    signInSubmitted: {
      reducer(state) {
        state.status = 'signingIn';
        state.error = null;
      },
      prepare: (credentials: { email: string; password: string }) => ({ payload: credentials }),
    },
    passwordChangeRequired(state) {
      state.status = 'mustChangePassword';
      state.error = null;
    },
    // As at sign-in, the passwords travel in the action only.
    passwordChangeSubmitted: {
      reducer(state) {
        state.status = 'changingPassword';
        state.error = null;
      },
      prepare: (change: { email: string; currentPassword: string; newPassword: string }) => ({
        payload: change,
      }),
    },
    /** The new password was refused (too short): the member tries another. */
    passwordChangeRefused(state, action: PayloadAction<string>) {
      state.status = 'mustChangePassword';
      state.error = action.payload;
    },
    signInSucceeded(state, action: PayloadAction<StaffLogin>) {
      state.status = 'loadingWorkspace';
      state.login = action.payload;
    },
    /** The tokens are new; the member and the rooms stay the objects the workspace holds. */
    accessTokenRenewed(state, action: PayloadAction<Refreshed>) {
      if (!state.login) return;
      const { access_token, accessTokenExpiresAt, xmpp, janusToken, expiresAt } = action.payload;
      Object.assign(state.login, {
        access_token,
        accessTokenExpiresAt,
        xmpp,
        janusToken,
        expiresAt,
      });
    },
    /** The API says the session is over (signed out elsewhere, deactivated, role changed). */
    sessionEnded(_state, action: PayloadAction<string>) {
      return { ...initialState, error: action.payload };
    },
    signInFailed(state, action: PayloadAction<string>) {
      state.status = 'signedOut';
      state.error = action.payload;
    },
    workspaceLoaded(
      state,
      action: PayloadAction<{ company: CompanyDetails; config: ClientConfig }>,
    ) {
      state.status = 'ready';
      state.company = action.payload.company;
      state.config = action.payload.config;
    },
    workspaceFailed(_state, action: PayloadAction<string>) {
      return { ...initialState, error: action.payload };
    },
    signedOut() {
      return initialState;
    },
  },
});

export const {
  resumeRequested,
  resumeRefused,
  signInSubmitted,
  passwordChangeRequired,
  passwordChangeSubmitted,
  passwordChangeRefused,
  signInSucceeded,
  accessTokenRenewed,
  sessionEnded,
  signInFailed,
  workspaceLoaded,
  workspaceFailed,
  signedOut,
} = authSlice.actions;

/** This agent's nick in the rooms: its JID's localpart (docs/protocol.md: `staff-<id>`). */
export const selectMyNick = (state: { auth: AuthState }): string | undefined =>
  state.auth.login?.xmpp.jid.split('@')[0];

/** The XMPP domain of this agent's JID, where the calls' rooms are (`callRoomJid`). */
export const selectXmppDomain = (state: { auth: AuthState }): string | undefined =>
  state.auth.login?.xmpp.jid.split('@')[1];
