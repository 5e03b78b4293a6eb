import { describe, expect, it } from 'vitest';
import { CALL_RESUME_WINDOW_MS, formatCallId } from '@frontdesk/protocol';
import { forgetTicket, keepTicket, keptTicket } from './resumeTicket.ts';
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
});
