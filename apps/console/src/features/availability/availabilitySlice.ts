import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { RootState } from '../../app/store.ts';
import { selectInCall } from '../call/callSlice.ts';

export const AVAILABILITIES = ['available', 'away', 'busy'] as const;
export type Availability = (typeof AVAILABILITIES)[number];

export const availabilitySlice = createSlice({
  name: 'availability',
  initialState: { chosen: 'available' as Availability },
  reducers: {
    availabilityChosen(state, action: PayloadAction<Availability>) {
      state.chosen = action.payload;
    },
  },
});

export const { availabilityChosen } = availabilitySlice.actions;

/** What others see: busy while a call is under way, whatever the agent chose (issue 7). */
export function selectAvailability(state: RootState): Availability {
  return selectInCall(state) ? 'busy' : state.availability.chosen;
}
