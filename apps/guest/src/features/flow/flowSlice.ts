import { createAction, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { CallTicket, GuestStage } from '@frontdesk/protocol';

/**
 * Why stage `failed` was reached: the server unreachable, the company unknown, a transferred
 * call that could not go on (spec §7 hold-call refused), or anything else.
 */
export type FailureReason = 'unreachable' | 'notFound' | 'unavailable' | 'transferFailed';

export type FlowState = {
  stage: GuestStage;
  failure: FailureReason | null;
};

const initialState: FlowState = { stage: 'loading', failure: null };

/** Which screen the guest sees. Each action names the event that moved the flow. */
export const flowSlice = createSlice({
  name: 'flow',
  initialState,
  reducers: {
    stageReached(state, action: PayloadAction<GuestStage>) {
      state.stage = action.payload;
      state.failure = null;
    },
    serviceFailed(state, action: PayloadAction<FailureReason>) {
      state.stage = 'failed';
      state.failure = action.payload;
    },
  },
});

export const { stageReached, serviceFailed } = flowSlice.actions;

/**
 * The visit found the call this tab was in before a reload (decision 0025): the call feature
 * takes it up, or starts the visit again when the API will not.
 */
export const callResumeFound = createAction<CallTicket>('flow/callResumeFound');
