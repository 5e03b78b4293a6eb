import { msUntilRenewal } from '@frontdesk/protocol';
import { agentNameListeners } from '../features/call/agentName.ts';
import { callListeners } from '../features/call/callListeners.ts';
import { notificationListeners } from '../features/call/notifications.ts';
import { chatListeners } from '../features/chat/chatListeners.ts';
import { guestSignedIn } from '../features/guestAuth/guestAuthSlice.ts';
import { renewLogin } from '../features/guestAuth/renewLogin.ts';
import type { AppStartListening } from './hooks.ts';
import { stagePageListeners } from './stagePages.ts';

/** Every feature's side effects, registered on one store's listener middleware. */
export function startListeners(startListening: AppStartListening): void {
  // An access token lasts minutes: the guest logs in again with its credential before it expires.
  startListening({
    actionCreator: guestSignedIn,
    effect: async (action, api) => {
      api.cancelActiveListeners();
      await api.delay(msUntilRenewal(action.payload.accessTokenExpiresAt));
      await api.dispatch(renewLogin());
    },
  });
  callListeners(startListening);
  notificationListeners(startListening);
  agentNameListeners(startListening);
  chatListeners(startListening);
  stagePageListeners(startListening);
}
