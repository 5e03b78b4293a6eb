/**
 * Server side only (Node): the company and category rooms, created and configured through
 * ejabberd's admin REST API (mod_http_api). SECURITY: that API listens on loopback and is never
 * proxied to browsers (INFRA-NOTES); only the API server calls this module.
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

/** One company's room or one category's room. */
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
const DEFAULT_MAX_USERS = 50;

/** A fresh room password: 130 random bits as 26 lowercase letters and digits. */
export function newRoomPassword(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return [...randomBytes(26)].map((byte) => alphabet[byte % 32]).join('');
}

/**
 * The room options, as the admin API spells and answers them (values are always strings).
 * Password-protected rather than members-only: guests are not known to ejabberd before they
 * register, and a password the API hands out needs no affiliation call per guest.
 */
function roomOptions(room: RoomSettings): Record<string, string> {
  return {
    title: room.title,
    persistent: 'true',
    password_protected: 'true',
    password: room.password,
    members_only: 'false',
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
    max_users: String(room.maxUsers ?? DEFAULT_MAX_USERS),
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
  const wanted = roomOptions(room);
  const created = await call(admin, 'create_room_with_opts', {
    name: room.name,
    service,
    host: admin.domain,
    options: Object.entries(wanted).map(([name, value]) => ({ name, value })),
  });
  if (created.ok) return 'created';
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
  return changes.length > 0 ? 'updated' : 'unchanged';
}

/** Removes a room (a deleted category); occupants are told it is gone. Absent rooms are fine. */
export async function removeRoom(admin: RoomAdmin, name: string): Promise<void> {
  const response = await call(admin, 'destroy_room', {
    name,
    service: `conference.${admin.domain}`,
  });
  if (response.status === 400 && (await response.clone().text()).includes("doesn't exist")) return;
  await expectOk('destroy_room', response);
}
