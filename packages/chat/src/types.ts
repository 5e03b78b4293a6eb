import type { ChatMessage, PresenceStatus } from '@frontdesk/protocol';

/**
 * Plain, serialisable data the adapter hands out (docs/architecture.md, code style: live objects
 * stay in the adapter, the store holds data like this). Times are ISO 8601 strings.
 */

/**
 * XMPP presence `show` (RFC 6121): how available a user says it is. Agents send `chat`
 * (available), `away` or `dnd` (busy) in their rooms (docs/protocol.md); `undefined` is plain
 * available.
 */
export type PresenceShow = 'chat' | 'away' | 'dnd' | 'xa';

/** One person in a room, as its latest presence shows it. */
export interface Occupant {
  /** The room nick, which is the occupant's jabber username. */
  nick: string;
  /** Its presence text decoded; `undefined` when the text is not ours (spec §4 codec). */
  status: PresenceStatus | undefined;
  /** When it entered the open-call set (spec §4), as it announced; only while it is there. */
  waitingSince: string | undefined;
  /** Its availability; `undefined` when its presence carries no `show`. */
  show: PresenceShow | undefined;
  /** This session's own occupant. */
  self: boolean;
}

/** spec §3 chat-room state `isRoomAuthed`: whether the last join was let in, and failed tries. */
export interface RoomAuth {
  status: boolean;
  tries: number;
}

export interface RoomSnapshot {
  /** The room's bare JID. */
  jid: string;
  nick: string;
  joined: boolean;
  auth: RoomAuth;
  /** Everyone present, this session included, in the order they were first seen. */
  occupants: Occupant[];
}

/**
 * `sending` until the server took it, `sent` once it did (stream management ack), `delivered`
 * when the other side's client confirmed it (XEP-0184 receipt or XEP-0333 `received`), `read`
 * once the other side showed it on screen (XEP-0333 `displayed`), `failed` when it bounced or
 * the connection dropped before the server took it.
 */
export type DeliveryState = 'sending' | 'sent' | 'delivered' | 'read' | 'failed';

/**
 * XEP-0085 chat states the apps exchange: `composing` while the user types, `paused` when it
 * stopped for a while without sending, `active` once it sent or cleared its text.
 */
export type TypingState = 'composing' | 'paused' | 'active';

/** The other side's chat state: `from` is its jabber username. */
export interface ChatStateChange {
  from: string;
  state: TypingState;
}

export interface ChatMessageRecord {
  /** The stanza id: the key for delivery updates. */
  id: string;
  direction: 'in' | 'out';
  /**
   * When it was sent: the XEP-0203 delay stamp of a message delivered late (a carbon, a stored
   * one; never later than its arrival), else when this session sent or received it.
   */
  at: string;
  delivery: DeliveryState;
  payload: ChatMessage;
}
