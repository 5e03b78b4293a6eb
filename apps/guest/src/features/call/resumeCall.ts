import { isAnyOf } from '@reduxjs/toolkit';
import { routes, type CallTicket } from '@frontdesk/protocol';
import type { AppStartListening } from '../../app/hooks.ts';
import { createAppThunk } from '../../app/hooks.ts';
import { callResumeFound, serviceFailed, stageReached } from '../flow/flowSlice.ts';
import { startVisit } from '../flow/startVisit.ts';
import { callServicesGranted } from '../guestAuth/guestAuthSlice.ts';
import { chatDeliveryChanged, chatMessageReceived, chatRestored } from '../chat/chatSlice.ts';
import { forgetTicket, keepChat, keptChat } from '../guestAuth/resumeTicket.ts';
import { callReportChained, callReportInitialised } from '../report/reportSlice.ts';
import { loadCallFlow, prefetchCallFlow } from './callCode.ts';
import { CLAIM_WAIT_MS, claimCall } from './callClaim.ts';
import { callResumed } from './callSlice.ts';

/**
 * decision 0025: the page came back (a reload, a reopened tab) while this tab was in a call. If
 * the API lets this guest take the call up again, the same conversation goes on — a waiting call
 * in its place in the queue, an answered one with its agent. `false` when it cannot (over, or left
 * too long ago): the ticket is forgotten.
 */
export const resumeCall = createAppThunk(
  'call/resume',
  async (ticket: CallTicket, { dispatch, getState, extra }): Promise<boolean> => {
    const { page, guestAuth } = getState();
    // The call's code loads while the API answers; a call that cannot go on never waits for it.
    const callFlow = loadCallFlow();
    callFlow.catch(() => undefined);
    let resumed;
    try {
      ({ data: resumed } = await extra.api(routes.resumeCall, {
        params: { callId: ticket.callId },
        token: guestAuth.access_token ?? undefined,
      }));
    } catch (error) {
      console.info('the interrupted call cannot be taken up again', error);
      forgetTicket(extra.tabStorage, page.companyId);
      return false;
    }
    const { joinQueue } = await callFlow;
    const callType = resumed.callType ?? ticket.callType;
    const categoryId = resumed.categoryId ?? ticket.categoryId;
    dispatch(
      callReportInitialised({
        callId: resumed.originCallId,
        reportId: resumed.reportId,
        status: 'ok',
      }),
    );
    dispatch(callReportChained({ callId: resumed.callId, reportId: resumed.reportId }));
    dispatch(callServicesGranted(resumed.services));
    dispatch(
      callResumed({
        callType,
        categoryId,
        agent: resumed.status === 'answered' ? resumed.agentJabberUsername : null,
        waitingFor: resumed.waitingFor,
      }),
    );
    // The chat so far, as this tab kept it: the chat server keeps none.
    const chat = keptChat(extra.tabStorage, page.companyId, guestAuth.jabberusername ?? '');
    if (chat.length > 0) dispatch(chatRestored(chat));
    void dispatch(
      joinQueue({
        callId: resumed.callId,
        callType,
        categoryId,
        callMethod: resumed.callMethod,
        resumed: true,
      }),
    );
    return true;
  },
);

export function resumeListeners(startListening: AppStartListening): void {
  // The visit found this tab's call: take it up, or (over, or left too long ago) visit anew.
  // A tab the browser duplicated has a copy of the ticket, but the call is open in the first tab
  // (it holds the call's claim): this one says so and stays out of the call.
  startListening({
    actionCreator: callResumeFound,
    effect: async ({ payload: ticket }, api) => {
      // The call's code comes while this tab waits for the call's claim.
      prefetchCallFlow();
      const claim = await claimCall(ticket.callId, CLAIM_WAIT_MS);
      if (!claim) return void api.dispatch(stageReached('elsewhere'));
      api.extra.connections.claim = claim;
      const resumed = await api
        .dispatch(resumeCall(ticket))
        .unwrap()
        .catch((error: unknown) => {
          // The call's code could not load (the network went): the ticket stays for a reload.
          console.error('could not take the call up again', error);
          api.dispatch(serviceFailed('unreachable'));
          return null;
        });
      if (resumed !== false) return;
      claim.release();
      api.extra.connections.claim = null;
      await api.dispatch(startVisit());
    },
  });

  // While the call lives, the tab keeps its chat beside the ticket, for a reload to show again.
  startListening({
    matcher: isAnyOf(chatMessageReceived, chatDeliveryChanged, chatRestored),
    effect: (_action, api) => {
      if (!api.extra.connections.call) return;
      const { page, chat } = api.getState();
      keepChat(api.extra.tabStorage, page.companyId, chat.chatMessages);
    },
  });

  // Once the conversation is over (any stage but the queue and the call), no reload resumes it.
  startListening({
    actionCreator: stageReached,
    effect: ({ payload: stage }, api) => {
      if (stage === 'waiting' || stage === 'ongoing') return;
      forgetTicket(api.extra.tabStorage, api.getState().page.companyId);
    },
  });
}
