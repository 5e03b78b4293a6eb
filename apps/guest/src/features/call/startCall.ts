import { formatCallId, routes, type CallType } from '@frontdesk/protocol';
import { createAppThunk } from '../../app/hooks.ts';
import { stageReached } from '../flow/flowSlice.ts';
import { refusalStage } from '../flow/startVisit.ts';
import { loadCallFlow } from './callCode.ts';
import { closeCall } from './connections.ts';
import { callServicesGranted } from '../guestAuth/guestAuthSlice.ts';
import { callSuffix } from '../guestAuth/identity.ts';
import { callReportFailed, callReportInitialised } from '../report/reportSlice.ts';

/** What the guest chose on the selection stage; `assignmentGroup` only where the company asks. */
export type CallRequest = {
  categoryId: number;
  callType: CallType;
  assignmentGroup?: string;
  /** The guest unticked "Record this call" where the company allows it (decision 0030). */
  recordingDeclined?: boolean;
};

/**
 * docs/architecture.md, step 3: a new call id (username--suffix), the call report, and the
 * company's verdict on it — out of quota or blocked stop here (spec §4 report initialisation),
 * and so do the company's rules when they changed since the page checked them (closed
 * meanwhile, say).
 */
export const startCall = createAppThunk(
  'report/startCall',
  async (request: CallRequest, { dispatch, getState, extra }) => {
    const { company, guestAuth, page } = getState();
    if (!company.details || !guestAuth.username || !guestAuth.access_token)
      throw new Error('not signed in');
    const callId = formatCallId(guestAuth.username, callSuffix());
    // The call's code loads while the API adds the report (most often it came ahead already);
    // a refused call never waits for it.
    const callFlow = loadCallFlow();
    callFlow.catch(() => undefined);
    try {
      const { data } = await extra.api(routes.addCallReport, {
        token: guestAuth.access_token,
        body: {
          call_id: callId,
          company: company.details.id,
          source: page.serviceType === 'Widget' ? 'widget' : 'site',
          category_id: request.categoryId,
          guest_username: guestAuth.username,
          ...(request.assignmentGroup === undefined
            ? {}
            : { assignmentGroup: request.assignmentGroup }),
          ...(request.recordingDeclined ? { recording: 'declined' as const } : {}),
          // spec §7: a native app's webview gets an H.264 room, whoever opens it first.
          ...(page.webview ? { webview: true } : {}),
        },
      });
      dispatch(callReportInitialised({ callId, reportId: data.id, status: data.status }));
      if (data.services) dispatch(callServicesGranted(data.services));
      if (data.status === 'outOfQuota') return void dispatch(stageReached('outOfQuota'));
      if (data.status === 'blocked') return void dispatch(stageReached('blocked'));
      const { joinQueue } = await callFlow;
      void dispatch(
        joinQueue({
          callId,
          callType: request.callType,
          categoryId: request.categoryId,
          callMethod: data.callMethod,
        }),
      ).then((result) => {
        // Whatever broke the call, the guest is not left on "Starting the call…" or a call
        // screen with no call behind it.
        if (!joinQueue.rejected.match(result)) return;
        console.error('the call failed', result.error);
        void closeCall(extra.connections);
        if (['selection', 'waiting', 'ongoing'].includes(getState().flow.stage)) {
          dispatch(stageReached('failed'));
        }
      });
    } catch (error) {
      dispatch(callReportFailed());
      const stage = refusalStage(error);
      if (stage) return void dispatch(stageReached(stage));
      // spec §8: a report failure is logged; the selection page offers to try again.
      console.error('could not report the call', error);
      throw error;
    }
  },
);
