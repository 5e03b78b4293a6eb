import type { ConnectionStatus, PresenceStatus, SessionEvents } from '@frontdesk/protocol';
import type { Agent } from 'stanza';
import { ChatError } from './errors.ts';
import type { ChatMessageRecord, ChatStateChange, DeliveryState, RoomSnapshot } from './types.ts';

/** How many message ids the session remembers to drop repeats (carbons, resends). */
const SEEN_IDS_KEPT = 500;

/** What the session reports; `on(event, cb)` subscribes. */
export interface ChatEvents extends SessionEvents {
  /** A failure that closed the session: bad or expired token, binding, session start. */
  error: ChatError;
  /** Any change in a room: joined, left, refused, an occupant's presence. */
  room: RoomSnapshot;
  /** A message sent or received by this session, or by this user's other sessions (carbons). */
  message: ChatMessageRecord;
  delivery: { id: string; delivery: DeliveryState };
  /** The other side typing, pausing or done (XEP-0085), from a one-to-one chat. */
  chatState: ChatStateChange;
  /** A presence this user published from any of its sessions (its state nodes, spec §4). */
  ownPresence: PresenceStatus;
  /**
   * A headline from the XMPP server itself, which the API sends through it (decision 0010: the
   * agents hear of new calls so). Only the server can send as the bare domain.
   */
  serverNotice: string;
}

/**
 * What the parts of a `ChatSession` (connection, rooms, messages, state nodes) share; internal
 * to the package. The session stays the only emitter and the owner of the status: the parts
 * report through `emit` and `setStatus`.
 */
export interface SessionContext {
  readonly client: Agent;
  /** The bare JID. */
  readonly jid: string;
  /** The JID's localpart: the nick in rooms and the `from` of messages. */
  readonly username: string;
  readonly domain: string;
  /** Failures that spec §8 says are logged only. */
  readonly log: (message: string, detail?: unknown) => void;
  status(): ConnectionStatus;
  setStatus(status: ConnectionStatus): void;
  emit<K extends keyof ChatEvents>(event: K, payload: ChatEvents[K]): void;
  /** Message and PEP item ids already handled, to drop repeats. */
  readonly seen: RecentIds;
  readonly sessionLost: SessionLost;
}

/** The ids seen lately, the oldest forgotten first. */
export class RecentIds {
  readonly #ids = new Set<string>();

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  remember(id: string): void {
    this.#ids.add(id);
    if (this.#ids.size > SEEN_IDS_KEPT) {
      this.#ids.delete(this.#ids.values().next().value as string);
    }
  }
}

/** Aborted when the current XMPP session drops: pending joins give up then. */
export class SessionLost {
  #controller = new AbortController();

  /** A session started: returns the signal of its drop. */
  renew(): AbortSignal {
    this.#controller = new AbortController();
    return this.#controller.signal;
  }

  abort(): void {
    this.#controller.abort();
  }

  /** `promise`, or a `not-connected` {@link ChatError} if the session drops first. */
  until<T>(promise: Promise<T>): Promise<T> {
    const signal = this.#controller.signal;
    if (signal.aborted) return Promise.reject(new ChatError('not-connected'));
    return new Promise<T>((resolve, reject) => {
      const lost = () => reject(new ChatError('not-connected'));
      signal.addEventListener('abort', lost, { once: true });
      promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', lost));
    });
  }
}
