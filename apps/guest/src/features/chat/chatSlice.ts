import { createAction, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ChatFile } from '@frontdesk/protocol';
import type { ChatMessageRecord, DeliveryState, TypingState } from '@frontdesk/chat';
// The conversation reducers come from their own entry: the chat package's main entry pulls in
// StanzaJS, which the pre-call pages must not load (issue 6: call code loads when a call starts).
import {
  chatOpened,
  deliveryChanged,
  emptyConversation,
  messageAdded,
  messagesRestored,
} from '@frontdesk/chat/conversation';
import type { RootState } from '../../app/store.ts';

/**
 * The chat of the call (spec §3 lists these with the call status state: `isChatOpen`,
 * `unreadMessages`, `chatMessages`); the chat panel shows it, the call's chat session fills it.
 */
export type ChatState = {
  isChatOpen: boolean;
  unreadMessages: number;
  /** Newest first. */
  chatMessages: ChatMessageRecord[];
  /** The call's agent is typing (XEP-0085 `composing`). */
  agentTyping: boolean;
};

const initialState: ChatState = {
  isChatOpen: false,
  agentTyping: false,
  ...emptyConversation,
};

export const chatSlice = createSlice({
  name: 'chat',
  initialState,
  reducers: {
    chatMessageReceived(state, action: PayloadAction<ChatMessageRecord>) {
      const next = messageAdded(state, action.payload, state.isChatOpen);
      state.chatMessages = next.chatMessages;
      state.unreadMessages = next.unreadMessages;
      if (action.payload.direction === 'in') state.agentTyping = false;
    },
    agentTypingChanged(state, action: PayloadAction<TypingState>) {
      state.agentTyping = action.payload === 'composing';
    },
    chatDeliveryChanged(state, action: PayloadAction<{ id: string; delivery: DeliveryState }>) {
      state.chatMessages = deliveryChanged(
        state,
        action.payload.id,
        action.payload.delivery,
      ).chatMessages;
    },
    /**
     * decision 0025: the chat a reload interrupted, as the tab kept it (newest first). A message
     * the page already shows (the same stanza id) is not added twice; none counts as unread.
     */
    chatRestored(state, action: PayloadAction<ChatMessageRecord[]>) {
      state.chatMessages = messagesRestored(state, action.payload).chatMessages;
    },
    chatToggled(state) {
      state.isChatOpen = !state.isChatOpen;
      if (state.isChatOpen) state.unreadMessages = chatOpened(state).unreadMessages;
    },
  },
});

export const {
  chatMessageReceived,
  chatDeliveryChanged,
  chatRestored,
  chatToggled,
  agentTypingChanged,
} = chatSlice.actions;

/** The guest typed, paused or is done: the agent is told (XEP-0085). */
export const guestTypingChanged = createAction<TypingState>('chat/guestTypingChanged');
/** The guest has the agent's newest message on screen: the agent learns it was read. */
export const agentMessageSeen = createAction<ChatMessageRecord>('chat/agentMessageSeen');

/**
 * The guest sent a text or a file (already uploaded) in the call's chat; a listener hands it to
 * the chat session, addressed to {@link selectRecipient}.
 */
export const messageSent = createAction<string | ChatFile>('chat/messageSent');

/** Whom the guest writes to: the agent of the call, or the agent who wrote first while waiting. */
export function selectRecipient(state: RootState) {
  return (
    state.call.agent ??
    state.chat.chatMessages.find((m) => m.direction === 'in')?.payload.from ??
    null
  );
}
