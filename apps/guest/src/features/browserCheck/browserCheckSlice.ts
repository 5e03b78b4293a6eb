import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** Why the browser cannot take a call; each has its own explanation on the unsupported page. */
export type BrowserFailure = 'noWebRTC' | 'disabledCamera' | 'offline';

/** spec §2 "Browser-check state". `null` means not checked yet. */
export type BrowserCheckState = {
  mediaEnabled: boolean | null;
  browserSupported: boolean | null;
  internetSupported: boolean | null;
  failurePage: BrowserFailure | null;
  /**
   * Ours: the camera and microphone the guest picked in the preview, which the call then uses
   * (`null`: the browser's default).
   */
  cameraId: string | null;
  microphoneId: string | null;
  /**
   * Ours: the guest refused the camera and chose a voice call instead (the company lets guests
   * choose): the preview asks for the microphone only and the selection offers voice only.
   */
  voiceOnly: boolean;
};

const initialState: BrowserCheckState = {
  mediaEnabled: null,
  browserSupported: null,
  internetSupported: null,
  failurePage: null,
  cameraId: null,
  microphoneId: null,
  voiceOnly: false,
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
      else if (state.failurePage === 'disabledCamera') state.failurePage = null;
    },
    /** The devices the preview shows now; the call starts with these. */
    previewDevicesChosen(
      state,
      action: PayloadAction<{ cameraId: string | null; microphoneId: string | null }>,
    ) {
      state.cameraId = action.payload.cameraId || null;
      state.microphoneId = action.payload.microphoneId || null;
    },
    /** The guest goes on without the camera, in a voice call. */
    voiceCallChosen(state) {
      state.voiceOnly = true;
      state.cameraId = null;
      state.mediaEnabled = null;
      state.failurePage = null;
    },
  },
});

export const { browserChecked, mediaAccessChecked, previewDevicesChosen, voiceCallChosen } =
  browserCheckSlice.actions;
