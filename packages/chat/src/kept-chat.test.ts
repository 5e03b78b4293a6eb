import { describe, expect, it } from 'vitest';
import { KEPT_CHAT_MAX } from '@frontdesk/protocol';
import { memoryStorage } from '@frontdesk/protocol/testing';
import { forgetChat, storeChat, storedChat } from './kept-chat.ts';
import type { ChatMessageRecord } from './types.ts';

const message = (
  id: string,
  direction: 'in' | 'out',
  from: string,
  to: string,
  delivery: ChatMessageRecord['delivery'] = 'delivered',
): ChatMessageRecord => ({
  id,
  direction,
  at: '2026-11-27T02:00:00.000Z',
  delivery,
  payload: { sender: direction === 'in' ? 'GUEST' : 'AGENT', from, to, message: `text ${id}` },
});

describe('a chat kept in the tab', () => {
  it('comes back as kept, between this user and the peer asked for only', () => {
    const storage = memoryStorage();
    const file = {
      ...message('f', 'in', 'guest1', 'agent7'),
      payload: {
        sender: 'GUEST' as const,
        from: 'guest1',
        to: 'agent7',
        message: {
          url: '/api/files/abcdefghijklmnopqrstuv',
          name: 'a.pdf',
          size: 12,
          type: 'application/pdf',
        },
      },
    };
    const kept = [
      message('3', 'out', 'agent7', 'guest1'),
      file,
      message('2', 'in', 'guest2', 'agent7'),
      message('1', 'in', 'guest1', 'agent7'),
    ];
    storeChat(storage, 'k', kept);
    expect(storedChat(storage, 'k', 'agent7', 'guest1').map((r) => r.id)).toEqual(['3', 'f', '1']);
    expect(storedChat(storage, 'k', 'agent7').map((r) => r.id)).toEqual(['3', 'f', '2', '1']);
    // Someone else's view of the same messages: none are theirs.
    expect(storedChat(storage, 'k', 'agent8', 'guest1')).toEqual([]);
  });

  it('shows a message still on its way when the page went as failed', () => {
    const storage = memoryStorage();
    storeChat(storage, 'k', [message('1', 'out', 'agent7', 'guest1', 'sending')]);
    expect(storedChat(storage, 'k', 'agent7', 'guest1')[0]?.delivery).toBe('failed');
  });

  it('keeps the newest only, and nothing that is not a chat comes back', () => {
    const storage = memoryStorage();
    const many = Array.from({ length: KEPT_CHAT_MAX + 5 }, (_, i) =>
      message(String(i), 'in', 'guest1', 'agent7'),
    );
    storeChat(storage, 'k', many);
    const back = storedChat(storage, 'k', 'agent7', 'guest1');
    expect(back).toHaveLength(KEPT_CHAT_MAX);
    expect(back[0]?.id).toBe('0');
    storage.setItem('k', '[{"id":"x","payload":{"message":"<img>"}}]');
    expect(storedChat(storage, 'k', 'agent7')).toEqual([]);
    storage.setItem('k', 'not json');
    expect(storedChat(storage, 'k', 'agent7')).toEqual([]);
    forgetChat(storage, 'k');
    expect(storage.getItem('k')).toBeNull();
    expect(storedChat(undefined, 'k', 'agent7')).toEqual([]);
  });
});
