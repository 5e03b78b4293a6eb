/**
 * Server side only (Node): the company room and each call's room, created and configured through
 * ejabberd's admin REST API (mod_http_api), with the users' nicks, rosters and notices. SECURITY: that API listens on loopback and is never
 * proxied to browsers (docs/operations.md); only the API server calls this module.
 */
import { randomBytes } from 'node:crypto';

/** Where ejabberd's admin API is. */
export interface RoomAdmin {
  /** `http://127.0.0.1:<port>/api` (the API's `XMPP_ADMIN_URL`). */
  adminApiUrl: string;
  /** The XMPP domain; rooms live on `conference.<domain>`. */
  domain: string;
  /** Per request. Default 5000 ms. */
  timeoutMs?: number;
}

/** One company's room (its agents and admins only). */
export interface RoomSettings {
  /** The room's localpart: lowercase letters, digits, `.`, `_`, `-` (ejabberd lowercases names). */
  name: string;
  /** Shown by XMPP clients; never secret. */
  title: string;
  /**
   * The join password the API hands only to this company's guests and agents. Lowercase:
   * ejabberd compares it case-sensitively and guests send it lowercased (spec §5).
   */
  password: string;
  /** At most mod_muc's `max_users` (50 in our config). Default 50. */
  maxUsers?: number;
  /** Bare JIDs: the room is members-only and these are its members. */
  members: readonly string[];
}

/** One call's room (decision 0010): its guest and the agents who may take or hold it. */
export interface CallRoomSettings {
  name: string;
  title: string;
  /** Bare JIDs of the guest and of the agents; nobody else may enter. */
  members: readonly string[];
}

/** What {@link ensureRoom} did. */
export type RoomOutcome = 'created' | 'updated' | 'unchanged';

/** The admin API refused a command or could not be reached. Never carries room passwords. */
export class RoomAdminError extends Error {
  constructor(
    readonly command: string,
    readonly status: number,
    detail: string,
  ) {
    super(`ejabberd ${command} failed (${status}): ${detail}`);
    this.name = 'RoomAdminError';
  }
}

const ROOM_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;
/** A call room is named after its call id, which may be longer than a company's room name. */
const CALL_ROOM_NAME = /^[a-z0-9][a-z0-9._-]{0,199}$/;
const DEFAULT_MAX_USERS = 50;

/** A fresh room password: 130 random bits as 26 lowercase letters and digits. */
export function newRoomPassword(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return [...randomBytes(26)].map((byte) => alphabet[byte % 32]).join('');
}

/** The room options, as the admin API spells and answers them (values are always strings). */
function roomOptions(room: { title: string; password?: string }): Record<string, string> {
  return {
    title: room.title,
    persistent: 'true',
    ...(room.password
      ? { password_protected: 'true', password: room.password }
      : { password_protected: 'false' }),
    // SECURITY: only the members the API names may enter (decision 0010).
    members_only: 'true',
    public: 'false',
    public_list: 'false',
    // SECURITY: semi-anonymous, so occupants (other guests) never see each other's real JIDs.
    anonymous: 'true',
    // Guests talk to agents by direct messages between their own JIDs, never through a room.
    allow_private_messages: 'false',
    allow_private_messages_from_visitors: 'nobody',
    allow_query_users: 'false',
    allow_user_invites: 'false',
    allow_change_subj: 'false',
    allow_subscription: 'false',
    // Call state travels in the occupants' presence status (spec §4): keep it allowed.
    allow_visitor_status: 'true',
    allow_visitor_nickchange: 'false',
    mam: 'false',
    logging: 'false',
    max_users: String(DEFAULT_MAX_USERS),
  };
}

function validate(room: RoomSettings): void {
  if (!ROOM_NAME.test(room.name)) throw new Error(`Invalid room name: ${room.name}`);
  if (room.password.length < 12 || room.password !== room.password.toLowerCase()) {
    // SECURITY: no password in the message.
    throw new Error(`The password of room ${room.name} must be lowercase, 12 characters or more`);
  }
}

async function call(admin: RoomAdmin, command: string, body: unknown): Promise<Response> {
  try {
    return await fetch(`${admin.adminApiUrl}/${command}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(admin.timeoutMs ?? 5000),
    });
  } catch (error) {
    throw new RoomAdminError(command, 0, String(error));
  }
}

async function expectOk(command: string, response: Response): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) throw new RoomAdminError(command, response.status, text.slice(0, 200));
  return JSON.parse(text) as unknown;
}

/**
 * Creates the room with its options, or, when it already exists, changes whichever options
 * differ: idempotent, so the API can run it for every company and category on every start
 * and whenever a company or category is added or its password changes.
 */
export async function ensureRoom(admin: RoomAdmin, room: RoomSettings): Promise<RoomOutcome> {
  validate(room);
  const service = `conference.${admin.domain}`;
  const wanted = { ...roomOptions(room), max_users: String(room.maxUsers ?? DEFAULT_MAX_USERS) };
  const created = await call(admin, 'create_room_with_opts', {
    name: room.name,
    service,
    host: admin.domain,
    options: Object.entries(wanted).map(([name, value]) => ({ name, value })),
  });
  if (created.ok) {
    await addMembers(admin, room.name, room.members);
    return 'created';
  }
  const refusal = await created.text();
  if (created.status !== 400 || !refusal.includes('Room already exists')) {
    throw new RoomAdminError('create_room_with_opts', created.status, refusal.slice(0, 200));
  }
  // ejabberd leaves an existing room's options as they were: bring them in line.
  const current = (await expectOk(
    'get_room_options',
    await call(admin, 'get_room_options', { name: room.name, service }),
  )) as Record<string, string>;
  const changes = Object.entries(wanted).filter(([option, value]) => current[option] !== value);
  for (const [option, value] of changes) {
    await expectOk(
      'change_room_option',
      await call(admin, 'change_room_option', { name: room.name, service, option, value }),
    );
  }
  await addMembers(admin, room.name, room.members);
  return changes.length > 0 ? 'updated' : 'unchanged';
}

/**
 * Creates a call's room with its members, or adds the members to the room when it exists
 * already (a repeated call-report/add, a restart). Idempotent.
 */
export async function ensureCallRoom(admin: RoomAdmin, room: CallRoomSettings): Promise<void> {
  await createCallRoom(admin, room);
  await addMembers(admin, room.name, room.members);
}

/**
 * Creates a call's room without members, unless it exists already: members-only, so nobody can
 * enter it until {@link addMembers} lets its guest and agents in. Apart from them, so a caller
 * can make the room while it still works out who they are.
 */
export async function createCallRoom(
  admin: RoomAdmin,
  room: Omit<CallRoomSettings, 'members'>,
): Promise<void> {
  if (!CALL_ROOM_NAME.test(room.name)) throw new Error(`Invalid room name: ${room.name}`);
  const created = await call(admin, 'create_room_with_opts', {
    name: room.name,
    service: `conference.${admin.domain}`,
    host: admin.domain,
    options: Object.entries(roomOptions(room)).map(([name, value]) => ({ name, value })),
  });
  if (!created.ok) {
    const refusal = await created.text();
    if (created.status !== 400 || !refusal.includes('Room already exists')) {
      throw new RoomAdminError('create_room_with_opts', created.status, refusal.slice(0, 200));
    }
  }
}

/** Makes each bare JID a member of the room (already members stay so). */
export async function addMembers(
  admin: RoomAdmin,
  name: string,
  members: readonly string[],
): Promise<void> {
  const service = `conference.${admin.domain}`;
  await Promise.all(
    members.map(async (jid) =>
      expectOk(
        'set_room_affiliation',
        await call(admin, 'set_room_affiliation', { name, service, jid, affiliation: 'member' }),
      ),
    ),
  );
}

/**
 * Reserves `nick` for `jid` on the MUC service: nobody else may take it in any room. SECURITY:
 * the agents' nicks, so that no guest can pass for one (decision 0010).
 */
export async function reserveNick(admin: RoomAdmin, nick: string, jid: string): Promise<void> {
  await expectOk(
    'muc_register_nick',
    await call(admin, 'muc_register_nick', { nick, jid, service: `conference.${admin.domain}` }),
  );
}

/**
 * Lets `contact` write to `user` (both localparts of the domain): mod_block_strangers refuses a
 * guest's messages to anyone whose roster does not list it (decision 0010). Subscription `to`,
 * so no presence flows between them outside the call's room.
 */
export async function allowMessagesFrom(
  admin: RoomAdmin,
  user: string,
  contact: string,
): Promise<void> {
  await expectOk(
    'add_rosteritem',
    await call(admin, 'add_rosteritem', {
      localuser: user,
      localhost: admin.domain,
      user: contact,
      host: admin.domain,
      nick: contact,
      group: 'calls',
      subs: 'to',
    }),
  );
}

/** Undoes {@link allowMessagesFrom}; a contact already gone is no error. */
export async function forbidMessagesFrom(
  admin: RoomAdmin,
  user: string,
  contact: string,
): Promise<void> {
  await expectOk(
    'delete_rosteritem',
    await call(admin, 'delete_rosteritem', {
      localuser: user,
      localhost: admin.domain,
      user: contact,
      host: admin.domain,
    }),
  );
}

/**
 * A headline from the server itself (no user can send as the domain) to each bare JID, to every
 * session of it that is online; nothing is kept for those offline.
 */
export async function notifyUsers(
  admin: RoomAdmin,
  jids: readonly string[],
  body: string,
): Promise<void> {
  await Promise.all(
    jids.map(async (to) =>
      expectOk(
        'send_message',
        await call(admin, 'send_message', {
          type: 'headline',
          from: admin.domain,
          to,
          subject: '',
          body,
        }),
      ),
    ),
  );
}

/** Removes a room (an ended call); occupants are told it is gone. Absent rooms are fine. */
export async function removeRoom(admin: RoomAdmin, name: string): Promise<void> {
  const response = await call(admin, 'destroy_room', {
    name,
    service: `conference.${admin.domain}`,
  });
  if (response.status === 400 && (await response.clone().text()).includes("doesn't exist")) return;
  await expectOk('destroy_room', response);
}

/**
 * The users (localparts) in the room now, by their real JIDs, which the admin API sees even in a
 * semi-anonymous room. A room the server does not have answers `undefined`: nobody can be in it,
 * but that says nothing of whether a call's sides left it.
 */
export async function roomOccupants(admin: RoomAdmin, name: string): Promise<string[] | undefined> {
  const response = await call(admin, 'get_room_occupants', {
    name,
    service: `conference.${admin.domain}`,
  });
  if (response.status === 400 && (await response.clone().text()).includes('room_not_found')) {
    return undefined;
  }
  const occupants = await expectOk('get_room_occupants', response);
  if (!Array.isArray(occupants)) throw new RoomAdminError('get_room_occupants', 200, 'not a list');
  return [
    ...new Set(
      occupants.map((occupant: { jid?: unknown }) =>
        typeof occupant.jid === 'string' ? (occupant.jid.split('@')[0] ?? '') : '',
      ),
    ),
  ].filter((user) => user !== '');
}

/** The users (localparts) of the domain that have at least one session open now. */
export async function connectedUsers(admin: RoomAdmin): Promise<string[]> {
  const jids = await expectOk('connected_users', await call(admin, 'connected_users', {}));
  if (!Array.isArray(jids)) throw new RoomAdminError('connected_users', 200, 'not a list');
  const suffix = `@${admin.domain}`;
  const users = jids
    .filter((jid): jid is string => typeof jid === 'string')
    .map((jid) => jid.split('/')[0] ?? '')
    .filter((bare) => bare.endsWith(suffix))
    .map((bare) => bare.slice(0, -suffix.length));
  return [...new Set(users)];
}

/**
 * Ends every session of the user at once: the server closes each with a `policy-violation`
 * stream error, which {@link ChatSession} takes as final (no reconnecting).
 */
export async function disconnectUser(admin: RoomAdmin, localpart: string): Promise<void> {
  await expectOk(
    'kick_user',
    await call(admin, 'kick_user', { user: localpart, host: admin.domain }),
  );
}

/**
 * Unregisters the user (a guest whose data is erased, decision 0032): ejabberd removes what it
 * keeps of it — roster, PEP nodes and their items, last activity. With JWT logins there is no
 * password to remove, and ejabberd answers so (`not_allowed`) after the removal has run, so
 * that answer is no error.
 */
export async function unregisterUser(admin: RoomAdmin, localpart: string): Promise<void> {
  const response = await call(admin, 'unregister', { user: localpart, host: admin.domain });
  if (response.ok) return;
  const text = await response.clone().text();
  if (response.status === 400 && text.includes('not_allowed')) return;
  await expectOk('unregister', response);
}
