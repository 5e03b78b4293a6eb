import { z } from 'zod';
import { callIdSchema } from './call-id.ts';

/** spec §4: the presence states published to a room. */
export const presenceStateSchema = z.enum([
  'InCall',
  'OpenCall',
  'Away',
  'CallOnHold',
  'CallResumed',
  'TestNode',
]);
export type PresenceState = z.infer<typeof presenceStateSchema>;

/** spec §4: the peer of a guest's presence when the company takes calls round-robin. */
export const ROUND_ROBIN_PEER = 'roundRobin';

/** spec §4: presence text is `state|peer|callId`. */
export const PRESENCE_SEPARATOR = '|';

/**
 * A jabber username: a JID localpart, which is also the user's room nick, so a presence's peer
 * or a message's `to` names a JID on the chat domain. Never holds the presence separator.
 */
export const jabberUsernameSchema = z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/);

/** A presence text, decoded. `peer` and `callId` are absent when their segment is. */
export const presenceStatusSchema = z.object({
  state: presenceStateSchema,
  /** {@link ROUND_ROBIN_PEER} or the jabber username of the other party. */
  peer: jabberUsernameSchema.optional(),
  callId: callIdSchema.optional(),
});
export type PresenceStatus = z.infer<typeof presenceStatusSchema>;

/** Encodes a presence as `state|peer|callId`, leaving out trailing segments that are absent. */
export function formatPresenceStatus(status: PresenceStatus): string {
  const { state, peer, callId } = presenceStatusSchema.parse(status);
  if (callId !== undefined) return [state, peer ?? '', callId].join(PRESENCE_SEPARATOR);
  return peer !== undefined ? [state, peer].join(PRESENCE_SEPARATOR) : state;
}

/**
 * Decodes a presence text; `undefined` when it is not one of ours (another client, a typo, a
 * forged segment), so callers can ignore it rather than act on half a status.
 */
export function parsePresenceStatus(text: string | undefined): PresenceStatus | undefined {
  if (!text) return undefined;
  const segments = text.split(PRESENCE_SEPARATOR);
  if (segments.length > 3) return undefined;
  const [state, peer, callId] = segments;
  const parsed = presenceStatusSchema.safeParse({
    state,
    ...(peer ? { peer } : {}),
    ...(callId ? { callId } : {}),
  });
  return parsed.success ? parsed.data : undefined;
}

/**
 * spec §4 open-call set: an occupant is in it while its status starts with OpenCall and has no
 * third segment (no call id yet); any other status, or leaving the room, takes it out.
 */
export function isOpenCall(status: PresenceStatus | undefined): boolean {
  return status?.state === 'OpenCall' && status.callId === undefined;
}

/** What the guest page knows when it picks its presence (spec §4 Away rule). */
export interface GuestAttention {
  pageHidden: boolean;
  androidMobile: boolean;
  notificationsAllowed: boolean;
}

/**
 * spec §4: the guest is Away when the page is hidden, the device is Android mobile and
 * notifications are not allowed (all three: such a guest cannot be called back); otherwise
 * OpenCall.
 */
export function guestPresenceState(attention: GuestAttention): 'Away' | 'OpenCall' {
  return attention.pageHidden && attention.androidMobile && !attention.notificationsAllowed
    ? 'Away'
    : 'OpenCall';
}

/** spec §3/§7: who wrote a chat message. */
export const chatSenderSchema = z.enum(['GUEST', 'AGENT']);
export type ChatSender = z.infer<typeof chatSenderSchema>;

/** The longest text message; a stanza must stay under the XMPP server's max_stanza_size. */
export const CHAT_TEXT_MAX_LENGTH = 4000;

/**
 * SECURITY: a file URL ends up in `href`/`src` attributes of the other party's page: only a file
 * our own API stored (`/api/files/<id>`, as `POST /api/upload` answers), never another site, a
 * `javascript:` or a `data:` URL (issue 13).
 */
const fileUrlSchema = z
  .string()
  .regex(/^\/api\/files\/[A-Za-z0-9_-]{22}$/, 'must be a file of ours: /api/files/<id>');

/** A file sent in the chat: uploaded first through `POST /upload/{type}` (spec §7). */
export const chatFileSchema = z.strictObject({
  url: fileUrlSchema,
  name: z.string().min(1).max(255),
  size: z.number().int().nonnegative(),
  /** The MIME type, e.g. `image/png`. */
  type: z.string().min(1).max(255),
});
export type ChatFile = z.infer<typeof chatFileSchema>;

/**
 * spec §7 "Chat over a websocket with pubsub messages (sender GUEST, to, from, message)": `to`
 * and `from` are jabber usernames; `message` is the text, or the file it carries.
 */
export const chatMessageSchema = z.strictObject({
  sender: chatSenderSchema,
  to: jabberUsernameSchema,
  from: jabberUsernameSchema,
  message: z.union([z.string().min(1).max(CHAT_TEXT_MAX_LENGTH), chatFileSchema]),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/**
 * The chat errors of spec §8 (and the two room-join outcomes the adapter adds), each with the
 * wording a guest or agent sees. The spec gives no wording, so these are ours.
 */
export const CHAT_ERROR_MESSAGES = {
  /** 'JID binding failed' */
  'bind-failed': 'The chat could not start. Please reload the page.',
  /** 'Session requeset failed' (sic) */
  'session-failed': 'The chat could not start. Please reload the page.',
  /** 'Mutual authentication failed' */
  'mutual-auth-failed': 'The chat server could not be verified. Please try again later.',
  /** 'authentication failed': a bad, expired or foreign token. */
  'auth-failed': 'Your chat sign-in has expired. Please reload the page.',
  /** 'Room nick required' */
  'nick-required': 'The chat room needs a name to show for you.',
  /** 'No upload service discovered' */
  'no-upload-service': 'Files cannot be sent right now.',
  /** spec §8: join-room authentication error (wrong password, not a member, banned). */
  'room-auth-failed': 'You cannot join this conversation.',
  /** Any other refusal to join a room (full, gone, not allowed to be created). */
  'room-join-failed': 'The conversation is not available right now.',
  /** Another session took this user's resource (spec §9: always `web`): another tab. */
  replaced: 'The chat is open in another window. Close this one or reload it.',
  /** The server ended every session of this user: a member of staff signed out or deactivated. */
  'signed-out': 'You have been signed out. Please sign in again.',
  /** The connection closed or never opened; nothing was sent. */
  'not-connected': 'The chat is offline. It reconnects by itself.',
  /** A p2p call's signal that callSignalSchema refuses: a bug of the sender, nothing was sent. */
  'invalid-signal': 'The call could not be set up. Please try again.',
} as const;

export const chatErrorCodeSchema = z.enum(
  Object.keys(CHAT_ERROR_MESSAGES) as [keyof typeof CHAT_ERROR_MESSAGES],
);
export type ChatErrorCode = z.infer<typeof chatErrorCodeSchema>;

/**
 * The body of the server notice the API sends every agent of a company when its waiting calls
 * change (decision 0010): the console asks `GET /api/calls?status=waiting` again.
 */
export const CALLS_CHANGED_NOTICE = 'calls-changed';

/**
 * The body of the server notice the API sends a company's admins when what their wallboard
 * shows of the team changed (an agent's availability, a sign-in or sign-out): the wallboard asks
 * `GET /api/reports/wallboard` again.
 */
export const TEAM_CHANGED_NOTICE = 'team-changed';
