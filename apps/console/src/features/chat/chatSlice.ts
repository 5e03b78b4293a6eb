import { createAction, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type {
  ChatMessageRecord,
  ChatStateChange,
  DeliveryState,
  TypingState,
} from '@frontdesk/chat';
import {
  chatOpened,
  deliveryChanged,
  emptyConversation,
  messageAdded,
  messagesRestored,
  type Conversation,
} from '@frontdesk/chat/conversation';
import type { RoomSnapshot } from '@frontdesk/chat';
import type { ConnectionStatus } from '@frontdesk/protocol';
import type { RootState } from '../../app/store.ts';

export type ChatState = {
  status: ConnectionStatus;
  /** A failure that closed the chat (spec §8 wording), e.g. the console opened in another tab. */
  error: string | null;
  /** One conversation per guest, by the guest's jabber username. */
  conversations: Record<string, Conversation>;
  /** The guest whose conversation is on screen. */
  openPeer: string | null;
  /**
   * The file being uploaded (`progress` from 0 to 1), or why the last one failed: shown until
   * the agent's next action (a message, another file, another conversation) or dismissed.
   */
  upload: Upload | null;
  /** Why the last message could not be sent; cleared likewise. */
  sendError: string | null;
  /** The guests typing now (XEP-0085 `composing`), by jabber username. */
  typing: Record<string, boolean>;
};

export type Upload = { name: string; progress: number; error: string | null };

const initialState: ChatState = {
  status: 'idle',
  error: null,
  conversations: {},
  openPeer: null,
  upload: null,
  sendError: null,
  typing: {},
};

/** The other party of a message this agent sent or received (a carbon from another tab too). */
const peerOf = (record: ChatMessageRecord) =>
  record.direction === 'in' ? record.payload.from : record.payload.to;

/**
 * A file to send to `to`. A File is no plain data: the store keeps only its name, the upload
 * listener takes the file from the action (the store is told to let this action through).
 */
export const fileChosen = createAction<{ to: string; file: File }>('chat/fileChosen');
/** A room the chat session is in changed: who is there, with which presence. */
export const chatRoomChanged = createAction<RoomSnapshot>('chat/roomChanged');
/** The session could not join a room (refused, or gone: a call's room whose guest left). */
export const roomJoinFailed = createAction<{ jid: string; message: string }>('chat/roomJoinFailed');
/** A headline from the chat server itself, which only the API can make it send. */
export const serverNoticeReceived = createAction<string>('chat/serverNoticeReceived');
/** The agent started typing to `to`, paused, or is done (sent or cleared its text). */
export const typingChanged = createAction<{ to: string; state: TypingState }>('chat/typingChanged');
/** The agent has the guest's newest message on screen: the guest learns it was read. */
export const messageSeen = createAction<ChatMessageRecord>('chat/messageSeen');

/** Forgets an upload's failure and a send error: the agent moved on. */
function clearProblems(state: ChatState) {
  if (state.upload?.error) state.upload = null;
  state.sendError = null;
}

export const chatSlice = createSlice({
  name: 'chat',
  initialState,
  reducers: {
    chatStatusChanged(state, action: PayloadAction<ConnectionStatus>) {
      state.status = action.payload;
      if (action.payload === 'connected') state.error = null;
    },
    chatFailed(state, action: PayloadAction<string>) {
      state.error = action.payload;
    },
    messageReceived(state, action: PayloadAction<ChatMessageRecord>) {
      const peer = peerOf(action.payload);
      state.conversations[peer] = messageAdded(
        state.conversations[peer] ?? emptyConversation,
        action.payload,
        state.openPeer === peer,
      );
      if (action.payload.direction === 'out') state.sendError = null;
      else state.typing[peer] = false;
    },
    peerTypingChanged(state, action: PayloadAction<ChatStateChange>) {
      state.typing[action.payload.from] = action.payload.state === 'composing';
    },
    messageDeliveryChanged(state, action: PayloadAction<{ id: string; delivery: DeliveryState }>) {
      for (const [peer, conversation] of Object.entries(state.conversations)) {
        state.conversations[peer] = deliveryChanged(
          conversation,
          action.payload.id,
          action.payload.delivery,
        );
      }
    },
    conversationOpened(state, action: PayloadAction<string>) {
      if (state.openPeer !== action.payload) clearProblems(state);
      state.openPeer = action.payload;
      state.conversations[action.payload] = chatOpened(
        state.conversations[action.payload] ?? emptyConversation,
      );
    },
    /** The chat with `peer` as this tab kept it before its reload (decision 0027). */
    conversationRestored(
      state,
      action: PayloadAction<{ peer: string; messages: ChatMessageRecord[] }>,
    ) {
      const { peer, messages } = action.payload;
      state.conversations[peer] = messagesRestored(
        state.conversations[peer] ?? emptyConversation,
        messages,
      );
    },
    conversationClosed(state) {
      state.openPeer = null;
      clearProblems(state);
    },
    messageSubmitted: {
      reducer(state) {
        clearProblems(state);
      },
      prepare: (message: { to: string; text: string }) => ({ payload: message }),
    },
    sendFailed(state, action: PayloadAction<string>) {
      state.sendError = action.payload;
    },
    uploadProgressed(state, action: PayloadAction<number>) {
      if (state.upload && !state.upload.error) state.upload.progress = action.payload;
    },
    uploadFinished(state) {
      state.upload = null;
    },
    uploadFailed(state, action: PayloadAction<string>) {
      if (state.upload) state.upload.error = action.payload;
    },
    /** The agent closed an upload's failure, or a send error. */
    problemDismissed(state) {
      clearProblems(state);
    },
  },
  extraReducers: (builder) => {
    builder.addCase(fileChosen, (state, action) => {
      state.sendError = null;
      state.upload = { name: action.payload.file.name, progress: 0, error: null };
    });
  },
});

export const {
  chatStatusChanged,
  chatFailed,
  messageReceived,
  messageDeliveryChanged,
  conversationOpened,
  conversationRestored,
  conversationClosed,
  messageSubmitted,
  sendFailed,
  peerTypingChanged,
  uploadProgressed,
  uploadFinished,
  uploadFailed,
  problemDismissed,
} = chatSlice.actions;

export const selectConversation = (state: RootState, peer: string): Conversation =>
  state.chat.conversations[peer] ?? emptyConversation;
