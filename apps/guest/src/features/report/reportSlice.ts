import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { CallReportStatus } from '@frontdesk/protocol';

/** spec §3 "Report state". */
export type ReportState = {
  reportId: number | null;
  callID: string | null;
  /** The first call id of this conversation, set once and kept through holds and transfers. */
  InitialCallID: string | null;
  reportInit: { isInitialized: boolean; isOutOfQuota: boolean; isGuestBlocked: boolean };
};

const initialState: ReportState = {
  reportId: null,
  callID: null,
  InitialCallID: null,
  reportInit: { isInitialized: false, isOutOfQuota: false, isGuestBlocked: false },
};

export const reportSlice = createSlice({
  name: 'report',
  initialState,
  reducers: {
    /** spec §4: outOfQuota or blocked set their flag; initialisation is done either way. */
    callReportInitialised(
      state,
      action: PayloadAction<{ callId: string; reportId: number; status: CallReportStatus }>,
    ) {
      const { callId, reportId, status } = action.payload;
      state.callID = callId;
      state.reportId = reportId;
      state.InitialCallID ??= callId;
      state.reportInit = {
        isInitialized: true,
        isOutOfQuota: status === 'outOfQuota',
        isGuestBlocked: status === 'blocked',
      };
    },
    /** spec §7 hold-call: the conversation continues under a new call id and report. */
    callReportChained(state, action: PayloadAction<{ callId: string; reportId: number }>) {
      state.callID = action.payload.callId;
      state.reportId = action.payload.reportId;
    },
    callReportFailed(state) {
      state.reportInit.isInitialized = true;
    },
  },
});

export const { callReportInitialised, callReportChained, callReportFailed } = reportSlice.actions;
