import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** Why the browser cannot take a call; each has its own explanation on the unsupported page. */
export type BrowserFailure = 'noWebRTC' | 'disabledCamera' | 'offline';

/** spec §2 "Browser-check state". `null` means not checked yet. */
export type BrowserCheckState = {
  mediaEnabled: boolean | null;
  browserSupported: boolean | null;
  internetSupported: boolean | null;
  failurePage: BrowserFailure | null;
};

const initialState: BrowserCheckState = {
  mediaEnabled: null,
  browserSupported: null,
  internetSupported: null,
  failurePage: null,
};

export const browserCheckSlice = createSlice({
  name: 'browserCheck',
  initialState,
  reducers: {
    browserChecked(
      state,
      action: PayloadAction<{ browserSupported: boolean; internetSupported: boolean }>,
    ) {
      state.browserSupported = action.payload.browserSupported;
      state.internetSupported = action.payload.internetSupported;
      state.failurePage = !action.payload.browserSupported
        ? 'noWebRTC'
        : !action.payload.internetSupported
          ? 'offline'
          : null;
    },
    /** spec §5: camera access is requested with audio; a refusal yields 'disabledCamera'. */
    mediaAccessChecked(state, action: PayloadAction<boolean>) {
      state.mediaEnabled = action.payload;
      if (!action.payload) state.failurePage = 'disabledCamera';
    },
  },
});

export const { browserChecked, mediaAccessChecked } = browserCheckSlice.actions;
