import { describe, expect, it } from 'vitest';
import {
  chatMessageSchema,
  formatPresenceStatus,
  guestPresenceState,
  isOpenCall,
  parsePresenceStatus,
} from '@frontdesk/protocol';

const callId = `g${'a'.repeat(25)}--c1`;

describe('presence codec (spec §4 state|peer|callId)', () => {
  it('round-trips each shape', () => {
    for (const status of [
      { state: 'Away' as const },
      { state: 'OpenCall' as const, peer: 'roundRobin' },
      { state: 'InCall' as const, peer: `g5-g${'a'.repeat(25)}`, callId },
    ]) {
      expect(parsePresenceStatus(formatPresenceStatus(status))).toEqual(status);
    }
    expect(formatPresenceStatus({ state: 'CallOnHold', callId })).toBe(`CallOnHold||${callId}`);
  });

  it('rejects what is not ours', () => {
    for (const text of [
      undefined,
      '',
      'Busy',
      'InCall|a|b|c',
      'OpenCall|has space',
      'InCall|x|not-a-call-id',
    ]) {
      expect(parsePresenceStatus(text)).toBeUndefined();
    }
    expect(() => formatPresenceStatus({ state: 'InCall', peer: 'a|b' })).toThrow();
  });

  it('puts in the open-call set only OpenCall without a third segment', () => {
    expect(isOpenCall(parsePresenceStatus('OpenCall|roundRobin'))).toBe(true);
    expect(isOpenCall(parsePresenceStatus('OpenCall'))).toBe(true);
    expect(isOpenCall(parsePresenceStatus(`OpenCall|staff-1|${callId}`))).toBe(false);
    expect(isOpenCall(parsePresenceStatus('Away'))).toBe(false);
    expect(isOpenCall(undefined)).toBe(false);
  });

  it('makes the guest Away only when hidden, on Android mobile, without notifications', () => {
    const attention = { pageHidden: true, androidMobile: true, notificationsAllowed: false };
    expect(guestPresenceState(attention)).toBe('Away');
    expect(guestPresenceState({ ...attention, pageHidden: false })).toBe('OpenCall');
    expect(guestPresenceState({ ...attention, androidMobile: false })).toBe('OpenCall');
    expect(guestPresenceState({ ...attention, notificationsAllowed: true })).toBe('OpenCall');
  });
});

describe('chat message schema', () => {
  const base = { sender: 'GUEST', from: 'g5-a', to: 'staff-1' };

  it('takes a text or a file', () => {
    expect(chatMessageSchema.safeParse({ ...base, message: 'hi' }).success).toBe(true);
    const url = `/api/files/${'A'.repeat(22)}`;
    const file = { url, name: 'x.png', size: 10, type: 'image/png' };
    expect(chatMessageSchema.safeParse({ ...base, message: file }).success).toBe(true);
  });

  it('refuses any URL but a file of ours, empty texts and unknown senders', () => {
    const file = { name: 'x', size: 1, type: 'text/html' };
    for (const url of [
      'javascript:alert(1)',
      'data:text/html,x',
      '//evil.example/x',
      'https://evil.example/api/files/AAAAAAAAAAAAAAAAAAAAAA',
      '/api/files/../../etc/passwd',
      '/console/',
    ]) {
      expect(chatMessageSchema.safeParse({ ...base, message: { ...file, url } }).success).toBe(
        false,
      );
    }
    expect(chatMessageSchema.safeParse({ ...base, message: '' }).success).toBe(false);
    expect(chatMessageSchema.safeParse({ ...base, sender: 'BOT', message: 'x' }).success).toBe(
      false,
    );
  });
});
