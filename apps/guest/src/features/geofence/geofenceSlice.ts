import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * Why the guest may not call from where it is: its position is outside the company's zones, or
 * the browser gave no position (refused, unsupported, timed out), which the guest can change.
 */
export type GeofenceRefusal = 'outside' | 'noLocation';

/**
 * spec §3 "Geofence state"; spec §4: a successful check means inside, any failure outside. Ours:
 * `reason` tells a position outside the zones from no position at all, which the page explains
 * differently (issue 18: a refused location is not "outside our area").
 */
export type GeofenceState = {
  outsideGeofence: boolean;
  checkingFinished: boolean;
  reason: GeofenceRefusal | null;
};

const initialState: GeofenceState = {
  outsideGeofence: false,
  checkingFinished: false,
  reason: null,
};

export const geofenceSlice = createSlice({
  name: 'geofence',
  initialState,
  reducers: {
    geofenceChecked(
      state,
      action: PayloadAction<{ inside: true } | { inside: false; reason: GeofenceRefusal }>,
    ) {
      state.outsideGeofence = !action.payload.inside;
      state.checkingFinished = true;
      state.reason = action.payload.inside ? null : action.payload.reason;
    },
  },
});

export const { geofenceChecked } = geofenceSlice.actions;
