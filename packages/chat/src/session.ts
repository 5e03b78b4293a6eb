import {
  Emitter,
  JOIN_ROOM_THROTTLE_MS,
  type AdapterSession,
  type CallSignal,
  type ChatFile,
  type ConnectionStatus,
  type ChatSender,
  type IceServer,
  type PresenceStatus,
  type SignalChannel,
} from '@frontdesk/protocol';
import { JID, type Agent } from 'stanza';
import { Connection, createChatClient } from './connection.ts';
import { RecentIds, SessionLost, type ChatEvents, type SessionContext } from './context.ts';
import { Messages } from './messages.ts';
import { Rooms, type JoinRoomOptions } from './rooms.ts';
import { Signals } from './signals.ts';
import { StateNodes } from './state-nodes.ts';
import type { ChatMessageRecord, PresenceShow, RoomSnapshot, TypingState } from './types.ts';

export interface ChatSessionOptions {
  /** XMPP over WebSocket (`ClientConfig.xmppWebsocketUrl`; in Node, a `ws://` URL works). */
  url: string;
  /** The user's bare JID as the API registered it (`xmpp.jid`). */
  jid: string;
  /** The JWT the API minted for that JID (`xmpp.password`). */
  token: string;
  /** Who this session writes as (spec §7). */
  sender: ChatSender;
  /**
   * The XMPP resource, `CHAT_RESOURCE` by default (spec §9: one per user, a newer session
   * replaces the older). An agent's tabs each pass their own so they stay connected side by
   * side; carbons then show each tab what the others sent and received.
   */
  resource?: string;
  /** spec §9 join throttle; tests shorten it. */
  joinThrottleMs?: number;
  /** Failures that spec §8 says are logged only (subscribe, ICE discovery, carbons). */
  log?: (message: string, detail?: unknown) => void;
  /**
   * The clock that stamps when this user began waiting (the queue order). Guests' clocks
   * disagree: pass one corrected by the API's `Date` header so every guest's time is
   * comparable.
   */
  now?: () => number;
}

/**
 * The typed chat session of both apps (docs/architecture.md: packages/chat is the only door to
 * StanzaJS). Create it, `connect()`, then join rooms, publish presence and exchange messages;
 * it reconnects by itself (spec §9) and restores its rooms and presence. `close()` ends it.
 *
 * A facade: the connection's life (connection.ts), the rooms (rooms.ts), the presence state
 * nodes (state-nodes.ts), the messages (messages.ts) and a p2p call's signals (signals.ts) do the
 * work; this class owns the status and is the one emitter of events.
 */
export class ChatSession implements AdapterSession<ChatEvents>, SignalChannel {
  /** The bare JID. */
  readonly jid: string;
  /** The JID's localpart: the nick in rooms and the `from` of messages. */
  readonly username: string;
  readonly #client: Agent;
  readonly #log: (message: string, detail?: unknown) => void;
  readonly #events: Emitter<ChatEvents>;
  readonly #connection: Connection;
  readonly #rooms: Rooms;
  readonly #messages: Messages;
  readonly #signals: Signals;
  #status: ConnectionStatus = 'idle';

  constructor(options: ChatSessionOptions) {
    this.jid = JID.toBare(options.jid);
    const { local, domain } = JID.parse(this.jid);
    if (!local) throw new Error(`Not a user JID: ${options.jid}`);
    this.username = local;
    this.#log = options.log ?? ((message, detail) => console.warn(`[chat] ${message}`, detail));
    this.#events = new Emitter((event, error) => this.#log(`a ${event} listener threw`, error));
    this.#client = createChatClient({
      url: options.url,
      jid: this.jid,
      token: options.token,
      resource: options.resource,
    });
    const ctx: SessionContext = {
      client: this.#client,
      jid: this.jid,
      username: this.username,
      domain,
      log: this.#log,
      status: () => this.#status,
      setStatus: (status) => this.#setStatus(status),
      emit: (event, payload) => this.#events.emit(event, payload),
      seen: new RecentIds(),
      sessionLost: new SessionLost(),
    };
    const stateNodes = new StateNodes(ctx);
    this.#rooms = new Rooms(ctx, stateNodes, {
      joinThrottleMs: options.joinThrottleMs ?? JOIN_ROOM_THROTTLE_MS,
      now: options.now ?? Date.now,
    });
    this.#messages = new Messages(ctx, options.sender);
    this.#signals = new Signals(ctx);
    this.#connection = new Connection(ctx, this.#rooms, stateNodes);
  }

  get status(): ConnectionStatus {
    return this.#status;
  }

  /** STUN/TURN servers announced by the XMPP server (XEP-0215), for RTCPeerConnection. */
  get iceServers(): readonly IceServer[] {
    return this.#connection.iceServers;
  }

  /** Subscribes to one kind of event; returns the unsubscribe function. */
  on<K extends keyof ChatEvents>(event: K, listener: (payload: ChatEvents[K]) => void): () => void {
    return this.#events.on(event, listener);
  }

  /**
   * Opens the session and runs the session-start duties (spec §4): presence, ICE servers,
   * carbons, state nodes. Resolves once connected; rejects with a {@link ChatError} when the
   * server refuses the token or the session, or when {@link close} runs first. Network drops
   * before that are retried, like later ones.
   */
  connect(): Promise<void> {
    return this.#connection.connect();
  }

  /** The token for the next reconnect, when the API has minted a fresh one. */
  setToken(token: string): void {
    this.#client.updateConfig({ password: token });
  }

  /** Ends the session and stops reconnecting. Idempotent. */
  close(): Promise<void> {
    return this.#connection.close();
  }

  /**
   * Joins a room, or answers the join already under way: spec §9 throttles joins to the
   * leading call in each 5000 ms (we count per room), whatever the later calls ask. Rejects with a
   * {@link ChatError}: `nick-required`, `room-auth-failed` (spec §8: the room is marked not
   * joined and the try counted), `room-join-failed` or `not-connected`.
   */
  joinRoom(room: string, options: JoinRoomOptions): Promise<RoomSnapshot> {
    return this.#rooms.join(room, options);
  }

  /** Leaves a room; it is no longer rejoined after a reconnect. */
  leaveRoom(room: string): Promise<void> {
    return this.#rooms.leave(room);
  }

  /**
   * Publishes this user's presence in a joined room (spec §4 `state|peer|callId`) and records
   * it on the state node. While the connection is down it is kept and sent on rejoin.
   */
  setPresence(room: string, status: PresenceStatus): void {
    this.#rooms.setPresence(room, status);
  }

  /**
   * Sets this user's availability (XMPP `show`, `undefined` for plain available) and sends it
   * with the current presence of every joined room; rooms joined later, and rejoins, carry it
   * too, so occupants of every room see it.
   */
  setAvailability(show: PresenceShow | undefined): void {
    this.#rooms.setAvailability(show);
  }

  /** The room as this session sees it; `undefined` when it never joined or has left. */
  room(room: string): RoomSnapshot | undefined {
    return this.#rooms.snapshot(room);
  }

  /**
   * Sends a text or a file (already uploaded through the API) to the user whose jabber
   * username is `to`. The record comes back at once with delivery `sending`; `delivery`
   * events follow. Throws `not-connected` rather than queueing while offline.
   */
  sendMessage(to: string, message: string | ChatFile): ChatMessageRecord {
    return this.#messages.send(to, message);
  }

  /** Tells the user `to` that this user is typing, paused or done (XEP-0085); not while offline. */
  sendChatState(to: string, state: TypingState): void {
    this.#messages.sendChatState(to, state);
  }

  /** Tells a received message's sender it is on screen (XEP-0333); each message once. */
  markDisplayed(record: ChatMessageRecord): void {
    this.#messages.markDisplayed(record);
  }

  /**
   * Sends a p2p call's signal to the user whose jabber username is `to`, to each of its online
   * sessions and never stored for later. Rejects with a {@link ChatError}: `invalid-signal` when
   * callSignalSchema refuses it, `not-connected` while offline; nothing is sent then.
   */
  sendSignal(to: string, signal: CallSignal): Promise<void> {
    return this.#signals.sendSignal(to, signal);
  }

  /**
   * Every well-formed p2p call signal that arrives, with its sender's jabber username as the
   * chat server stamped it; malformed ones are logged and dropped. Whether the sender is the
   * call's party is the listener's to check. Returns the unsubscribe.
   */
  onSignal(listener: (from: string, signal: CallSignal) => void): () => void {
    return this.#signals.onSignal(listener);
  }

  /**
   * spec §4 "Ending a session": leaves the room, or, while the call is put on hold, stays and
   * publishes CallOnHold naming the agent it is held by; then ends the media sessions
   * through `endMedia` and sends empty presence.
   */
  async endCall(
    room: string,
    options: {
      endMedia: () => void | Promise<void>;
      hold?: { agent: string; callId: string };
    },
  ): Promise<void> {
    if (options.hold) {
      this.setPresence(room, {
        state: 'CallOnHold',
        peer: options.hold.agent,
        callId: options.hold.callId,
      });
    } else {
      await this.leaveRoom(room);
    }
    await options.endMedia();
    if (this.#status === 'connected') this.#client.sendPresence();
  }

  #setStatus(status: ConnectionStatus): void {
    if (this.#status === status || this.#status === 'closed') return;
    this.#status = status;
    this.#events.emit('status', status);
  }
}
