import { isAnyOf } from '@reduxjs/toolkit';
import type { ChatMessageRecord } from '@frontdesk/chat';
import { forgetChat, storeChat, storedChat } from '@frontdesk/chat/kept-chat';
import type { AppStartListening } from '../../app/hooks.ts';
import {
  conversationRestored,
  messageDeliveryChanged,
  messageReceived,
  selectConversation,
} from '../chat/chatSlice.ts';
import { callClaimed } from '../queue/queueSlice.ts';
import { callEnded, callRejoinFailed } from './callSlice.ts';

/*
 * The call's chat, kept by the tab that has the call open so that a reload shows it again
 * (decision 0027): the chat server keeps no copy, as for the guest's tab (decision 0025, whose
 * keeper this shares). In the tab's own session storage, under the call's id, only while the
 * call is live; forgotten when it ends or cannot be taken up again.
 */

const chatKey = (callId: string) => `frontdesk-console.chat.${callId}`;

/** This tab's own storage; none where the browser refuses it (then a reload shows no chat). */
function tabStorage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

/**
 * What this tab kept of `callId`'s chat between `self` (this agent's chat user) and `guest`: the
 * guest's messages to this agent and this agent's to the guest, nobody else's.
 */
export const keptCallChat = (callId: string, self: string, guest: string): ChatMessageRecord[] =>
  storedChat(tabStorage(), chatKey(callId), self, guest);

export function callChatListeners(startListening: AppStartListening): void {
  startListening({
    matcher: isAnyOf(callClaimed, messageReceived, messageDeliveryChanged, conversationRestored),
    effect: (_action, { getState }) => {
      const state = getState();
      const { call, phase } = state.call;
      if (!call || (phase !== 'connecting' && phase !== 'active')) return;
      const { chatMessages } = selectConversation(state, call.guestJabberUsername);
      storeChat(tabStorage(), chatKey(call.callId), chatMessages);
    },
  });

  startListening({
    matcher: isAnyOf(callEnded, callRejoinFailed),
    effect: (_action, { getState }) => {
      const { call, rejoin } = getState().call;
      const callId = call?.callId ?? rejoin?.callId;
      if (callId) forgetChat(tabStorage(), chatKey(callId));
    },
  });
}
