import {
  callRoomJid,
  formatCallId,
  routes,
  setupComplete,
  type CallMethod,
  type CallType,
} from '@frontdesk/protocol';
import { createAppThunk } from '../../app/hooks.ts';
import type { GuestServices } from '../../app/services.ts';
import type { AppDispatch, RootState } from '../../app/store.ts';
import { callSuffix } from '../guestAuth/identity.ts';
import { callReportChained } from '../report/reportSlice.ts';
import { callRoomChosen } from '../chat/chatRoomSlice.ts';
import { bugReport } from '../../app/bugReport.ts';
import { serviceFailed, stageReached } from '../flow/flowSlice.ts';
import { callRequested, callTransferred, endConfirmToggled } from './callSlice.ts';
import { closeCall } from './connections.ts';
import { openCall } from './openCall.ts';
import { isMediaRefusal, mediaRefused } from './mediaRefused.ts';

/** spec §8 "Report failures: logged only": what a report's refusal becomes. */
const reportFailed = (what: string) => (error: unknown) => console.warn(what, error);

/**
 * From a call report that the company accepted to the end of the call: join the queue and
 * publish (docs/protocol.md step 2), wait while the agent takes, holds and resumes the call,
 * follow transfers (step 7), and leave when either side ends it. Failures end in stage
 * `failed`, with a call-bug report when the media set-up did not complete (spec §4).
 */
export const joinQueue = createAppThunk(
  'call/joinQueue',
  async (
    /**
     * `callMethod`: as the answer that made the call said (add or resume, decision 0045).
     * `resumed`: the call a reload interrupted (decision 0025), requested and stamped before.
     */
    request: {
      callId: string;
      callType: CallType;
      categoryId: number;
      callMethod: CallMethod;
      resumed?: boolean;
    },
    { dispatch, getState, extra },
  ) => {
    const ctx = { dispatch, getState, extra };
    const token = getState().guestAuth.access_token ?? undefined;
    let typeRecorded: Promise<unknown> = Promise.resolve();
    if (!request.resumed) {
      dispatch(callRequested({ callType: request.callType, categoryId: request.categoryId }));
      // spec §7: sent with keepalive, so a guest who closes the page at once still has it stamped.
      void extra
        .api(routes.stampCallReport, {
          token,
          keepalive: true,
          body: { call_id: request.callId, call_initiated_timestamp: true },
        })
        .catch(reportFailed('could not stamp the start of the call'));
      // The agent answers with the same kind of call: recorded before the guest shows in a queue
      // (openCall waits for it as the call's chat connects, before entering the call's room).
      // spec §8: a report that fails is logged, and the call goes on.
      typeRecorded = extra
        .api(routes.updateCallReport, {
          token,
          body: { call_id: request.callId, call_type: request.callType },
        })
        .catch(reportFailed('could not record the type of the call'));
    }

    let { callId, callMethod } = request;
    for (;;) {
      const categoryId = getState().call.categoryId ?? request.categoryId;
      const xmppJid = getState().guestAuth.services?.xmpp.jid;
      if (!xmppJid) {
        console.error('no chat service for this call');
        return void dispatch(stageReached('failed'));
      }
      // decision 0010: each call has a room of its own, which the API made for it.
      const roomJid = callRoomJid(callId, xmppJid.split('@')[1] ?? '');
      dispatch(callRoomChosen({ categoryId, jid: roomJid }));
      // A resumed call its agent had answered goes on at once (it shows "reconnecting").
      dispatch(stageReached(getState().call.agent === null ? 'waiting' : 'ongoing'));
      let call;
      try {
        call = await openCall(
          { callId, callType: request.callType, callMethod, roomJid, recorded: typeRecorded },
          ctx,
        );
      } catch (error) {
        // The guest left the queue while the call was being set up: that is no failure.
        if (!['waiting', 'ongoing'].includes(getState().flow.stage)) return;
        if (isMediaRefusal(error)) {
          // A company without a preview screen asks for the camera only here: the guest is told
          // it was refused, as on the preview, and may go on in a voice call (a new call). This
          // one ends as left; it is no bug of ours to report.
          console.warn('the browser refused the camera or microphone of the call', error);
          await extra
            .api(routes.endCall, {
              params: { callId },
              token,
              body: { reason: getState().call.agent === null ? 'abandoned' : 'completed' },
            })
            .catch(reportFailed('could not report the end of the call'));
          await closeCall(extra.connections);
          return void mediaRefused(dispatch);
        }
        console.error('call set-up failed', error);
        if (!setupComplete(extra.connections.call?.media.state.stages ?? {})) {
          void extra
            .api(routes.reportCallBug, { token, body: bugReport(getState(), callId) })
            .catch(reportFailed('could not send the call-bug report'));
        }
        await closeCall(extra.connections);
        dispatch(stageReached('failed'));
        return;
      }
      const outcome = await call.ended;
      if (outcome.kind === 'closed') return; // the guest hung up first (hangUp handled it)
      await closeCall(extra.connections);
      if (outcome.kind !== 'transfer') {
        // The agent hanging up destroys the room (the API cleans up): that is a call completed.
        // Only a media failure the adapter could not recover from is a failed call.
        const completed = outcome.kind === 'agentLeft' || outcome.reason !== 'failed';
        dispatch(stageReached(completed && getState().call.callStarted ? 'rating' : 'failed'));
        return;
      }
      try {
        ({ callId, callMethod } = await chainCall(outcome, ctx));
      } catch (error) {
        // The leg the agent left is closed: without the next one there is no call to show.
        console.error('could not continue the call after its transfer', error);
        return void dispatch(serviceFailed('transferFailed'));
      }
    }
  },
);

/**
 * spec §7 hold-call: a new call id continues the conversation (origin → current → new), in the
 * way the API fixed for the new leg (decision 0045).
 */
async function chainCall(
  transfer: { toAgent: string | null; toCategoryId: number | null },
  {
    dispatch,
    getState,
    extra,
  }: { dispatch: AppDispatch; getState: () => RootState; extra: GuestServices },
): Promise<{ callId: string; callMethod: CallMethod }> {
  const { report, guestAuth } = getState();
  if (!report.callID || !report.InitialCallID || !guestAuth.username)
    throw new Error('no call to continue');
  const newCallId = formatCallId(guestAuth.username, callSuffix());
  const { data } = await extra.api(routes.holdCall, {
    token: guestAuth.access_token ?? undefined,
    body: {
      origin_call_id: report.InitialCallID,
      current_call_id: report.callID,
      new_call_id: newCallId,
      guest_username: guestAuth.username,
      ...(transfer.toCategoryId ? { category_id: transfer.toCategoryId } : {}),
    },
  });
  // The call left behind keeps its Janus room until someone ends it (apps/api README).
  void extra
    .api(routes.endCall, {
      params: { callId: report.callID },
      token: guestAuth.access_token ?? undefined,
      body: { reason: 'completed' },
    })
    .catch(reportFailed('could not end the call left behind'));
  dispatch(callReportChained({ callId: newCallId, reportId: data.id }));
  dispatch(callTransferred(transfer));
  return { callId: newCallId, callMethod: data.callMethod };
}

/**
 * The guest hangs up: before an agent answered it is an abandoned call (stage `abandoned`),
 * after it a completed one (stage `rating`). Both are reported to the API.
 */
export const hangUp = createAppThunk(
  'call/hangUp',
  async (_arg: undefined, { dispatch, getState, extra }) => {
    const state = getState();
    const callId = state.report.callID;
    const answered = state.call.agent !== null;
    dispatch(endConfirmToggled(false));
    // The guest's hang-up is how this call ends, whatever the adapters report from now on: the
    // API destroys the room as it ends the call, and Janus may tell the media before it answers.
    extra.connections.call?.settle({ kind: 'closed' });
    // Measured before the API ends the call: that destroys the room, and the media with it.
    await extra.connections.call?.reportQuality('end');
    if (callId) {
      await extra
        .api(routes.endCall, {
          params: { callId },
          token: state.guestAuth.access_token ?? undefined,
          body: { reason: answered ? 'completed' : 'abandoned' },
        })
        .catch(reportFailed('could not report the end of the call'));
    }
    await closeCall(extra.connections);
    dispatch(stageReached(answered ? 'rating' : 'abandoned'));
  },
);
