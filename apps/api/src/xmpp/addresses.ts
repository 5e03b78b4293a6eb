import { recordIdSchema, type Category, type GuestRoom } from '@frontdesk/protocol';

/** The MUC service of the XMPP domain, where company and category rooms live. */
export function mucService(domain: string): string {
  return `conference.${domain}`;
}

export function roomJid(room: string, domain: string): string {
  return `${room}@${mucService(domain)}`;
}

export function userJid(localpart: string, domain: string): string {
  return `${localpart}@${domain}`;
}

/**
 * A guest's XMPP localpart, from its public username (already lower-case, decision 0006). The
 * prefix `g<company>-` keeps guests of different companies apart and never meets a staff
 * localpart.
 */
export function guestJabberUsername(companyId: number, username: string): string {
  return `g${companyId}-${username}`;
}

/** An agent's or admin's XMPP localpart: stable for the account, whatever its e-mail. */
export function staffJabberUsername(staffId: number): string {
  return `staff-${staffId}`;
}

/** The staff id behind a jabber username from {@link staffJabberUsername}; else `undefined`. */
export function staffIdOf(jabberUsername: string): number | undefined {
  const match = /^staff-(\d{1,10})$/.exec(jabberUsername);
  return recordIdSchema.safeParse(Number(match?.[1])).data;
}

/**
 * The company's chat rooms: its own room and one per category (spec §3 chat state: companyMuc,
 * selectedCategoryMuc), all behind the company's one room password. SECURITY: for the company's
 * own guests (registration) and staff (login) only.
 */
export function companyRooms(
  company: { conference_name: string; room_password: string },
  categories: readonly Pick<Category, 'id' | 'roomName'>[],
  domain: string,
): GuestRoom[] {
  const password = company.room_password;
  return [
    { jid: roomJid(company.conference_name, domain), kind: 'company', categoryId: null, password },
    ...categories.map((c) => ({
      jid: roomJid(c.roomName, domain),
      kind: 'category' as const,
      categoryId: c.id,
      password,
    })),
  ];
}
