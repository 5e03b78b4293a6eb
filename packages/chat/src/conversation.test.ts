import { describe, expect, it } from 'vitest';
import {
  chatOpened,
  deliveryChanged,
  emptyConversation,
  messageAdded,
  messagesRestored,
} from './conversation.ts';
import type { ChatMessageRecord } from './types.ts';

const record = (id: string, direction: 'in' | 'out'): ChatMessageRecord => ({
  id,
  direction,
  at: '2026-11-21T10:00:00.000Z',
  delivery: direction === 'in' ? 'delivered' : 'sending',
  payload: { sender: 'GUEST', from: 'a', to: 'b', message: id },
});

describe('the conversation', () => {
  it('keeps messages newest first and counts unread ones while the panel is closed', () => {
    let chat = messageAdded(emptyConversation, record('1', 'out'), false);
    chat = messageAdded(chat, record('2', 'in'), false);
    chat = messageAdded(chat, record('3', 'in'), true);
    chat = messageAdded(chat, record('2', 'in'), false);
    expect(chat.chatMessages.map((r) => r.id)).toEqual(['3', '2', '1']);
    expect(chat.unreadMessages).toBe(1);
    expect(chatOpened(chat).unreadMessages).toBe(0);
  });

  it('updates the delivery state of one message', () => {
    const chat = deliveryChanged(
      messageAdded(emptyConversation, record('1', 'out'), true),
      '1',
      'delivered',
    );
    expect(chat.chatMessages[0]?.delivery).toBe('delivered');
  });

  it('puts the messages kept across a reload after those that came since, each once, none unread', () => {
    const since = messageAdded(
      messageAdded(emptyConversation, record('2', 'in'), false),
      record('4', 'in'),
      false,
    );
    const chat = messagesRestored(since, [
      record('3', 'out'),
      record('2', 'in'),
      record('1', 'in'),
    ]);
    expect(chat.chatMessages.map((r) => r.id)).toEqual(['4', '2', '3', '1']);
    expect(chat.unreadMessages).toBe(2);
  });
});
