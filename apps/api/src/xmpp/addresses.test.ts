import { describe, expect, it } from 'vitest';
import {
  companyRooms,
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

  it('gives a guest a lower-case localpart that is stable per company and username', () => {
    const jabber = guestJabberUsername(5, 'AbCdEf12_Suffix99');
    expect(jabber).toMatch(/^g5-abcdef12_suffix99-[0-9a-f]{10}$/);
    expect(guestJabberUsername(5, 'AbCdEf12_Suffix99')).toBe(jabber);
  });

  it('never gives two usernames that differ only in case, or two companies, one JID', () => {
    const a = guestJabberUsername(5, 'abcdefgh_12345678');
    expect(guestJabberUsername(5, 'ABCDEFGH_12345678')).not.toBe(a);
    expect(guestJabberUsername(6, 'abcdefgh_12345678')).not.toBe(a);
  });

  it('keeps staff and guests in separate namespaces', () => {
    expect(staffJabberUsername(3)).toBe('staff-3');
    expect(guestJabberUsername(3, 'abcdefgh_12345678').startsWith('staff-')).toBe(false);
  });

  it("lists the company's room first, then one room per category, all with its password", () => {
    const company = { conference_name: 'demo', room_password: 'abcdefghijklmnop' };
    const categories = [{ id: 1, roomName: 'demo-sales' }];
    expect(companyRooms(company, categories, 'example.org')).toEqual([
      {
        jid: 'demo@conference.example.org',
        kind: 'company',
        categoryId: null,
        password: 'abcdefghijklmnop',
      },
      {
        jid: 'demo-sales@conference.example.org',
        kind: 'category',
        categoryId: 1,
        password: 'abcdefghijklmnop',
      },
    ]);
  });
});
