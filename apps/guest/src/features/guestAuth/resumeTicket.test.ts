import { describe, expect, it } from 'vitest';
import { CALL_RESUME_WINDOW_MS, formatCallId } from '@frontdesk/protocol';
import { forgetTicket, keepChat, keepTicket, keptChat, keptTicket } from './resumeTicket.ts';
import { memoryStorage } from '../../test/memoryStorage.ts';

const guest = `g${'a'.repeat(25)}`;
const other = `g${'b'.repeat(25)}`;
const ticket = {
  callId: formatCallId(guest, 'abcdefghijkl'),
  categoryId: 12,
  callType: 'video' as const,
};

describe('the tab’s call ticket (decision 0025)', () => {
  it('gives back the call this tab kept, for the same guest and company', () => {
    const storage = memoryStorage();
    keepTicket(storage, 12, ticket, 1000);
    expect(keptTicket(storage, 12, guest, 2000)).toEqual({ ...ticket, savedAt: 1000 });
    expect(keptTicket(storage, 5, guest, 2000)).toBeUndefined();
  });

  it('drops a ticket of another guest, one older than the window, or one made up', () => {
    const storage = memoryStorage();
    keepTicket(storage, 12, ticket, 1000);
    expect(keptTicket(storage, 12, other, 2000)).toBeUndefined();
    expect(storage.length).toBe(0);
    keepTicket(storage, 12, ticket, 1000);
    expect(keptTicket(storage, 12, guest, 1000 + CALL_RESUME_WINDOW_MS)).toBeUndefined();
    storage.setItem('frontdesk.call.12', '{"callId":"x","categoryId":12}');
    expect(keptTicket(storage, 12, guest)).toBeUndefined();
  });

  it('forgets it once the conversation is over, and without storage keeps nothing', () => {
    const storage = memoryStorage();
    keepTicket(storage, 12, ticket);
    forgetTicket(storage, 12);
    expect(keptTicket(storage, 12, guest)).toBeUndefined();
    keepTicket(undefined, 12, ticket);
    expect(keptTicket(undefined, 12, guest)).toBeUndefined();
  });

  describe('the call’s chat kept beside it', () => {
    const nick = `g12-${guest}`;
    const message = (id: string, direction: 'in' | 'out', text: string) => ({
      id,
      direction,
      at: '2026-11-26T10:00:00.000Z',
      delivery: 'delivered' as const,
      payload: {
        sender: direction === 'in' ? ('AGENT' as const) : ('GUEST' as const),
        from: direction === 'in' ? 'staff-3' : nick,
        to: direction === 'in' ? nick : 'staff-3',
        message: text,
      },
    });
    const chat = [message('m2', 'in', 'Hello Rita'), message('m1', 'out', 'Hi')];

    it('gives back the chat for the guest it was kept for, while the ticket lasts', () => {
      const storage = memoryStorage();
      keepTicket(storage, 12, ticket);
      keepChat(storage, 12, chat);
      expect(keptChat(storage, 12, nick)).toEqual(chat);
      // Messages between other people than this guest are not this guest's chat.
      expect(keptChat(storage, 12, `g12-${other}`)).toEqual([]);
      forgetTicket(storage, 12);
      expect(storage.length).toBe(0);
      expect(keptChat(storage, 12, nick)).toEqual([]);
    });

    it('gives a message still on its way at the reload back as not delivered', () => {
      const storage = memoryStorage();
      keepTicket(storage, 12, ticket);
      keepChat(storage, 12, [{ ...message('m3', 'out', 'Are you there?'), delivery: 'sending' }]);
      expect(keptChat(storage, 12, nick).map((m) => m.delivery)).toEqual(['failed']);
    });

    it('keeps nothing without a ticket, and reads nothing it did not write', () => {
      const storage = memoryStorage();
      keepChat(storage, 12, chat);
      expect(storage.length).toBe(0);
      keepTicket(storage, 12, ticket);
      storage.setItem('frontdesk.chat.12', '[{"id":"x","payload":{"message":"<img>"}}]');
      expect(keptChat(storage, 12, nick)).toEqual([]);
      storage.setItem('frontdesk.chat.12', 'not json');
      expect(keptChat(storage, 12, nick)).toEqual([]);
    });
  });
});
