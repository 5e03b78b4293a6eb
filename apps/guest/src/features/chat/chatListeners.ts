import type { AppStartListening } from '../../app/hooks.ts';
import { agentMessageSeen, guestTypingChanged, messageSent, selectRecipient } from './chatSlice.ts';

/** The chat's side effects: the panel dispatches what the guest wrote, this sends it. */
export function chatListeners(startListening: AppStartListening): void {
  startListening({
    actionCreator: messageSent,
    effect: ({ payload }, api) => {
      const recipient = selectRecipient(api.getState());
      if (recipient) api.extra.connections.call?.chat.sendMessage(recipient, payload);
    },
  });
  startListening({
    actionCreator: guestTypingChanged,
    effect: ({ payload }, api) => {
      const recipient = selectRecipient(api.getState());
      if (recipient) api.extra.connections.call?.chat.sendChatState(recipient, payload);
    },
  });
  startListening({
    actionCreator: agentMessageSeen,
    effect: ({ payload }, api) => api.extra.connections.call?.chat.markDisplayed(payload),
  });
}
