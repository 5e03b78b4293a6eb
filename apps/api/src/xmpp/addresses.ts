import { recordIdSchema, type GuestRoom } from '@frontdesk/protocol';

/** The MUC service of the XMPP domain, where the company and call rooms live. */
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
 * The company's own room (spec §3 chat state `companyMuc`): its agents and admins, with their
 * availability. SECURITY: members only (room-provisioning) and for staff login only.
 */
export function companyRoom(
  company: { conference_name: string; room_password: string },
  domain: string,
): GuestRoom {
  return {
    jid: roomJid(company.conference_name, domain),
    kind: 'company',
    categoryId: null,
    password: company.room_password,
  };
}
