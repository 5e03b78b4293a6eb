import type { ChatMessageRecord, DeliveryState } from './types.ts';

/**
 * spec §3 call status state: `chatMessages` (newest first) and `unreadMessages`. Pure
 * functions, so both apps can call them from their reducers with the adapter's events.
 */
export interface Conversation {
  chatMessages: ChatMessageRecord[];
  unreadMessages: number;
}

export const emptyConversation: Conversation = { chatMessages: [], unreadMessages: 0 };

/**
 * Adds a message the adapter reported (sent, received, or a carbon from another tab). An
 * incoming one counts as unread while the chat panel is closed. A repeat of a known id is a no-op.
 */
export function messageAdded(
  conversation: Conversation,
  record: ChatMessageRecord,
  chatOpen: boolean,
): Conversation {
  if (conversation.chatMessages.some((known) => known.id === record.id)) return conversation;
  return {
    chatMessages: [record, ...conversation.chatMessages],
    unreadMessages: conversation.unreadMessages + (record.direction === 'in' && !chatOpen ? 1 : 0),
  };
}

export function deliveryChanged(
  conversation: Conversation,
  id: string,
  delivery: DeliveryState,
): Conversation {
  return {
    ...conversation,
    chatMessages: conversation.chatMessages.map((record) =>
      record.id === id ? { ...record, delivery } : record,
    ),
  };
}

/**
 * Adds the messages a tab kept across its reload (newest first, as kept) after those that arrived
 * since, which are newer: each message once, none counted unread (they were on screen before).
 */
export function messagesRestored(
  conversation: Conversation,
  records: readonly ChatMessageRecord[],
): Conversation {
  const known = new Set(conversation.chatMessages.map((record) => record.id));
  const kept = records.filter((record) => !known.has(record.id) && known.add(record.id));
  return { ...conversation, chatMessages: [...conversation.chatMessages, ...kept] };
}

/** Opening the chat panel reads everything. */
export function chatOpened(conversation: Conversation): Conversation {
  return conversation.unreadMessages === 0 ? conversation : { ...conversation, unreadMessages: 0 };
}
