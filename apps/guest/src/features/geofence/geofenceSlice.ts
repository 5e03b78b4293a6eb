import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** spec §3 "Geofence state"; spec §4: a successful check means inside, any failure outside. */
export type GeofenceState = { outsideGeofence: boolean; checkingFinished: boolean };

const initialState: GeofenceState = { outsideGeofence: false, checkingFinished: false };

export const geofenceSlice = createSlice({
  name: 'geofence',
  initialState,
  reducers: {
    geofenceChecked(state, action: PayloadAction<{ inside: boolean }>) {
      state.outsideGeofence = !action.payload.inside;
      state.checkingFinished = true;
    },
  },
});

export const { geofenceChecked } = geofenceSlice.actions;
