import { createListenerMiddleware, isAnyOf } from '@reduxjs/toolkit';
import { msUntilRenewal } from '@frontdesk/protocol';
import {
  agentAccepted,
  mediaStateChanged,
  notificationPermissionChanged,
  pageVisibilityChanged,
} from '../features/call/callSlice.ts';
import { liveCall, waitingPresence } from '../features/call/connections.ts';
import { stageReached } from '../features/flow/flowSlice.ts';
import { guestSignedIn } from '../features/guestAuth/guestAuthSlice.ts';
import { renewLogin } from '../features/guestAuth/renewLogin.ts';
import type { AppDispatch, RootState } from './store.ts';

export const listenerMiddleware = createListenerMiddleware();
const startAppListening = listenerMiddleware.startListening.withTypes<RootState, AppDispatch>();

// docs/protocol.md step 4: the agent took the call and its media arrived ⇒ stage ongoing.
startAppListening({
  matcher: isAnyOf(agentAccepted, mediaStateChanged),
  effect: (_action, api) => {
    const { flow, call } = api.getState();
    if (flow.stage === 'waiting' && call.agent !== null && call.peerCall === 'Resumed') {
      api.dispatch(stageReached('ongoing'));
    }
  },
});

// spec §4: while waiting, the guest's presence follows the page's visibility (the Away rule).
startAppListening({
  matcher: isAnyOf(pageVisibilityChanged, notificationPermissionChanged),
  effect: (_action, api) => {
    const state = api.getState();
    const call = liveCall();
    if (state.flow.stage !== 'waiting' || !call) return;
    call.chat.setPresence(call.room, waitingPresence(state));
  },
});

// An access token lasts minutes: the guest logs in again with its credential before it expires.
startAppListening({
  actionCreator: guestSignedIn,
  effect: async (action, api) => {
    api.cancelActiveListeners();
    await api.delay(msUntilRenewal(action.payload.accessTokenExpiresAt));
    await api.dispatch(renewLogin());
  },
});
