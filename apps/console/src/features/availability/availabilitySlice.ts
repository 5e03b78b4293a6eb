import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { PresenceShow } from '@frontdesk/chat';
import {
  agentAvailabilitySchema,
  type AgentAvailability,
  type Colleague,
} from '@frontdesk/protocol';
import type { RootState } from '../../app/store.ts';

export const AVAILABILITIES = agentAvailabilitySchema.options;
export type Availability = AgentAvailability;

/** How each availability travels in the rooms (docs/protocol.md: XMPP `show`). */
export const SHOW_OF: Record<Availability, PresenceShow> = {
  available: 'chat',
  away: 'away',
  busy: 'dnd',
};

/** An occupant's availability from its `show`: none at all is plain available (RFC 6121). */
export function availabilityOf(show: PresenceShow | undefined): Availability {
  if (show === 'away' || show === 'xa') return 'away';
  return show === 'dnd' ? 'busy' : 'available';
}

export const availabilitySlice = createSlice({
  name: 'availability',
  initialState: { chosen: 'available' as Availability, colleagues: [] as Colleague[] },
  reducers: {
    availabilityChosen(state, action: PayloadAction<Availability>) {
      state.chosen = action.payload;
    },
    /** Another tab of the agent's said what the agent chose there (availabilityListeners). */
    availabilitySynced(state, action: PayloadAction<Availability>) {
      state.chosen = action.payload;
    },
    /** `GET /api/staff`: names for the nicks of the company room. */
    colleaguesLoaded(state, action: PayloadAction<Colleague[]>) {
      state.colleagues = action.payload;
    },
  },
});

export const { availabilityChosen, availabilitySynced, colleaguesLoaded } =
  availabilitySlice.actions;

/** A call is under way (claimed and not ended): the agent is busy. */
export const selectInCall = (state: RootState) =>
  state.call.phase === 'connecting' || state.call.phase === 'active';

/** What others see: busy while a call is under way, whatever the agent chose (issue 7). */
export function selectAvailability(state: RootState): Availability {
  return selectInCall(state) ? 'busy' : state.availability.chosen;
}
