import { describe, expect, it } from 'vitest';
import {
  companyRoom,
  guestJabberUsername,
  roomJid,
  staffJabberUsername,
  userJid,
} from './addresses.ts';

describe('XMPP addresses', () => {
  it('places rooms on the conference service of the domain', () => {
    expect(roomJid('frontdesk-demo', 'frontdesk.localhost')).toBe(
      'frontdesk-demo@conference.frontdesk.localhost',
    );
    expect(userJid('staff-1', 'frontdesk.localhost')).toBe('staff-1@frontdesk.localhost');
  });

  it('gives a guest a localpart from its company and public username, nothing else', () => {
    const username = `g${'a'.repeat(25)}`;
    expect(guestJabberUsername(5, username)).toBe(`g5-${username}`);
    expect(guestJabberUsername(6, username)).not.toBe(guestJabberUsername(5, username));
  });

  it('keeps staff and guests in separate namespaces', () => {
    expect(staffJabberUsername(3)).toBe('staff-3');
    expect(guestJabberUsername(3, `g${'s'.repeat(25)}`).startsWith('staff-')).toBe(false);
  });

  it("gives staff the company's own room with its password, and nothing of any call", () => {
    const company = { conference_name: 'demo', room_password: 'abcdefghijklmnop' };
    expect(companyRoom(company, 'example.org')).toEqual({
      jid: 'demo@conference.example.org',
      kind: 'company',
      categoryId: null,
      password: 'abcdefghijklmnop',
    });
  });
});
