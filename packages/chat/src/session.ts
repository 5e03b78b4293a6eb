import {
  CHAT_MAX_RECONNECT_BACKOFF,
  CHAT_RESOURCE,
  chatMessageSchema,
  formatPresenceStatus,
  isOpenCall,
  JOIN_ROOM_THROTTLE_MS,
  parsePresenceStatus,
  presenceStateSchema,
  type ChatFile,
  type ChatMessage,
  type ChatSender,
  type IceServer,
  type PresenceStatus,
} from '@frontdesk/protocol';
import { createClient, JID, JXT, type Agent } from 'stanza';
import type {
  ExternalService,
  Message,
  Presence,
  ReceivedMUCPresence,
  StreamError,
} from 'stanza/protocol';
import { ChatError, chatErrorCodeOf } from './errors.ts';
import type {
  ChatMessageRecord,
  ChatStatus,
  DeliveryState,
  Occupant,
  PresenceShow,
  RoomAuth,
  RoomSnapshot,
} from './types.ts';

/** Our presence extension: when the occupant entered the open-call set (see {@link waitingSince}). */
const NS_QUEUE = 'urn:frontdesk:queue:0';
/** One PEP node per presence state on the user's own JID (spec §4), so nobody can squat it. */
const STATE_NODE_PREFIX = 'urn:frontdesk:presence:';
const NS_JSON = 'urn:xmpp:json:0';

declare module 'stanza/protocol' {
  interface Presence {
    frontdeskQueue?: { since?: Date };
  }
}

/** MUC status codes (XEP-0045) after which the server will not let us back in by itself. */
const REMOVED_FROM_ROOM = new Set(['301', '307', '321', '322']);
/** Join errors that mean "not let in" (spec §8): wrong password, not a member, banned. */
const ROOM_AUTH_ERRORS = new Set(['not-authorized', 'registration-required', 'forbidden']);
/** How long a leave waits for the room's answer. */
const LEAVE_ROOM_TIMEOUT_MS = 3000;
/** How many message ids the session remembers to drop repeats (carbons, resends). */
const SEEN_IDS_KEPT = 500;

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

export interface JoinRoomOptions {
  /** Required (spec §8 'Room nick required'): the user's jabber username, so peers can name it. */
  nick: string;
  /** Sent lowercased (spec §5). */
  password?: string;
  /** The presence to enter with. */
  status?: PresenceStatus;
}

/** What the session reports; `on(event, cb)` subscribes. */
export interface ChatEvents {
  status: ChatStatus;
  /** A failure that closed the session: bad or expired token, binding, session start. */
  error: ChatError;
  /** Any change in a room: joined, left, refused, an occupant's presence. */
  room: RoomSnapshot;
  /** A message sent or received by this session, or by this user's other sessions (carbons). */
  message: ChatMessageRecord;
  delivery: { id: string; delivery: DeliveryState };
  /** A presence this user published from any of its sessions (its state nodes, spec §4). */
  ownPresence: PresenceStatus;
  /**
   * A headline from the XMPP server itself, which the API sends through it (decision 0010: the
   * agents hear of new calls so). Only the server can send as the bare domain.
   */
  serverNotice: string;
}

type Listener<K extends keyof ChatEvents> = (payload: ChatEvents[K]) => void;

interface RoomEntry {
  jid: string;
  nick: string;
  password: string | undefined;
  status: PresenceStatus | undefined;
  waitingSince: string | undefined;
  /** Rejoin after a reconnect (false once left, kicked or refused). */
  wanted: boolean;
  joined: boolean;
  auth: RoomAuth;
  occupants: Map<string, Occupant>;
  leading: { at: number; join: Promise<RoomSnapshot> } | undefined;
}

const DELIVERY_RANK: Record<DeliveryState, number> = {
  sending: 0,
  sent: 1,
  delivered: 2,
  failed: 2,
};

/**
 * The typed chat session of both apps (ARCHITECTURE: packages/chat is the only door to
 * StanzaJS). Create it, `connect()`, then join rooms, publish presence and exchange messages;
 * it reconnects by itself (spec §9) and restores its rooms and presence. `close()` ends it.
 */
export class ChatSession {
  /** The bare JID. */
  readonly jid: string;
  /** The JID's localpart: the nick in rooms and the `from` of messages. */
  readonly username: string;
  readonly #domain: string;
  readonly #client: Agent;
  readonly #sender: ChatSender;
  readonly #joinThrottleMs: number;
  readonly #log: (message: string, detail?: unknown) => void;
  readonly #now: () => number;
  readonly #listeners = new Map<keyof ChatEvents, Set<Listener<keyof ChatEvents>>>();
  readonly #rooms = new Map<string, RoomEntry>();
  readonly #deliveries = new Map<string, DeliveryState>();
  readonly #seen = new Set<string>();
  #status: ChatStatus = 'idle';
  /** The `show` of every room presence (see {@link setAvailability}). */
  #show: PresenceShow | undefined;
  #iceServers: IceServer[] = [];
  /** Aborted when the current XMPP session drops: pending joins give up then. */
  #sessionLost = new AbortController();
  #pendingConnect: { resolve: () => void; reject: (error: ChatError) => void } | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: ChatSessionOptions) {
    this.jid = JID.toBare(options.jid);
    const { local, domain } = JID.parse(this.jid);
    if (!local) throw new Error(`Not a user JID: ${options.jid}`);
    this.username = local;
    this.#domain = domain;
    this.#sender = options.sender;
    this.#joinThrottleMs = options.joinThrottleMs ?? JOIN_ROOM_THROTTLE_MS;
    this.#log = options.log ?? ((message, detail) => console.warn(`[chat] ${message}`, detail));
    this.#now = options.now ?? Date.now;
    this.#client = createClient({
      jid: this.jid,
      password: options.token,
      resource: options.resource ?? CHAT_RESOURCE,
      // spec §9: reconnect by itself, at most 10 s apart, and never resume a stream (a
      // resumed session would keep a vanished guest "present" in rooms for minutes).
      autoReconnect: true,
      maxReconnectBackoff: CHAT_MAX_RECONNECT_BACKOFF,
      allowResumption: false,
      transports: { websocket: options.url, bosh: false },
    });
    // INFRA-NOTES: StanzaJS prefers X-OAUTH2, which ejabberd checks against its own OAuth
    // table, not our JWT. The server refuses it too; this keeps the client from asking.
    this.#client.sasl.disable('X-OAUTH2');
    this.#client.stanzas.define({
      element: 'queue',
      namespace: NS_QUEUE,
      path: 'presence.frontdeskQueue',
      fields: { since: JXT.dateAttribute('since') },
    });
    this.#wire();
  }

  get status(): ChatStatus {
    return this.#status;
  }

  /** STUN/TURN servers announced by the XMPP server (XEP-0215), for RTCPeerConnection. */
  get iceServers(): readonly IceServer[] {
    return this.#iceServers;
  }

  /** Subscribes to one kind of event; returns the unsubscribe function. */
  on<K extends keyof ChatEvents>(event: K, listener: Listener<K>): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    const stored = listener as Listener<keyof ChatEvents>;
    set.add(stored);
    return () => void set.delete(stored);
  }

  /**
   * Opens the session and runs the session-start duties (spec §4): presence, ICE servers,
   * carbons, state nodes. Resolves once connected; rejects with a {@link ChatError} when the
   * server refuses the token or the session, or when {@link close} runs first. Network drops
   * before that are retried, like later ones.
   */
  connect(): Promise<void> {
    if (this.#status !== 'idle') return Promise.reject(new Error('connect() runs once'));
    this.#setStatus('connecting');
    // spec §9: the library's keep-alive (a ping every 300 s, 15 s to answer) notices dead
    // connections that a browser would not report. StanzaJS restarts it with every stream.
    this.#client.enableKeepAlive();
    return new Promise((resolve, reject) => {
      this.#pendingConnect = { resolve, reject };
      void this.#client.connect();
    });
  }

  /** The token for the next reconnect, when the API has minted a fresh one. */
  setToken(token: string): void {
    this.#client.updateConfig({ password: token });
  }

  /** Ends the session and stops reconnecting. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#shutDown();
    return this.#closing;
  }

  /**
   * Joins a room, or answers the join already under way: spec §9 throttles joins to the
   * leading call in each 5000 ms (we count per room), whatever the later calls ask. Rejects with a
   * {@link ChatError}: `nick-required`, `room-auth-failed` (spec §8: the room is marked not
   * joined and the try counted), `room-join-failed` or `not-connected`.
   */
  joinRoom(room: string, options: JoinRoomOptions): Promise<RoomSnapshot> {
    if (!options.nick) return Promise.reject(new ChatError('nick-required'));
    if (this.#status !== 'connected') return Promise.reject(new ChatError('not-connected'));
    const jid = JID.toBare(room);
    const now = Date.now();
    const known = this.#rooms.get(jid);
    if (known?.leading && now - known.leading.at < this.#joinThrottleMs) {
      return known.leading.join;
    }
    const entry: RoomEntry = known ?? {
      jid,
      nick: options.nick,
      password: undefined,
      status: undefined,
      waitingSince: undefined,
      wanted: false,
      joined: false,
      auth: { status: false, tries: 0 },
      occupants: new Map(),
      leading: undefined,
    };
    entry.nick = options.nick;
    // spec §5: the password is sent lowercased.
    entry.password = options.password?.toLowerCase();
    if (options.status) this.#recordStatus(entry, options.status);
    entry.wanted = true;
    this.#rooms.set(jid, entry);
    const join = this.#join(entry);
    entry.leading = { at: now, join };
    return join;
  }

  /** Leaves a room; it is no longer rejoined after a reconnect. */
  async leaveRoom(room: string): Promise<void> {
    const entry = this.#rooms.get(JID.toBare(room));
    if (!entry) return;
    entry.wanted = false;
    this.#rooms.delete(entry.jid);
    if (entry.joined && this.#status === 'connected') {
      // A room the API removed as the call ended never answers the leave: wait only so long.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const answered = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, LEAVE_ROOM_TIMEOUT_MS);
      });
      await this.#untilSessionLost(
        Promise.race([this.#client.leaveRoom(entry.jid, entry.nick), answered]),
      )
        .catch((error: unknown) => this.#log(`leaving ${entry.jid} failed`, error))
        .finally(() => clearTimeout(timer));
    }
    entry.joined = false;
    entry.occupants.clear();
    this.#emit('room', snapshotOf(entry));
  }

  /**
   * Publishes this user's presence in a joined room (spec §4 `state|peer|callId`) and records
   * it on the state node. While the connection is down it is kept and sent on rejoin.
   */
  setPresence(room: string, status: PresenceStatus): void {
    const entry = this.#rooms.get(JID.toBare(room));
    if (!entry) throw new Error(`setPresence: not in room ${room}`);
    this.#recordStatus(entry, status);
    if (entry.joined && this.#status === 'connected') {
      this.#client.sendPresence({
        to: JID.createFull(entry.jid, entry.nick),
        ...this.#roomPresence(entry),
      });
      this.#publishState(status);
    }
  }

  /**
   * Sets this user's availability (XMPP `show`, `undefined` for plain available) and sends it
   * with the current presence of every joined room; rooms joined later, and rejoins, carry it
   * too, so occupants of every room see it.
   */
  setAvailability(show: PresenceShow | undefined): void {
    if (show === this.#show) return;
    this.#show = show;
    if (this.#status !== 'connected') return;
    for (const entry of this.#rooms.values()) {
      if (!entry.joined) continue;
      this.#client.sendPresence({
        to: JID.createFull(entry.jid, entry.nick),
        ...this.#roomPresence(entry),
      });
    }
  }

  /** The room as this session sees it; `undefined` when it never joined or has left. */
  room(room: string): RoomSnapshot | undefined {
    const entry = this.#rooms.get(JID.toBare(room));
    return entry && snapshotOf(entry);
  }

  /**
   * Sends a text or a file (already uploaded through the API) to the user whose jabber
   * username is `to`. The record comes back at once with delivery `sending`; `delivery`
   * events follow. Throws `not-connected` rather than queueing while offline.
   */
  sendMessage(to: string, message: string | ChatFile): ChatMessageRecord {
    if (this.#status !== 'connected') throw new ChatError('not-connected');
    const payload = chatMessageSchema.parse({
      sender: this.#sender,
      to,
      from: this.username,
      message,
    });
    const id = this.#client.nextId();
    const record: ChatMessageRecord = {
      id,
      direction: 'out',
      at: new Date().toISOString(),
      delivery: 'sending',
      payload,
    };
    this.#deliveries.set(id, 'sending');
    this.#remember(id);
    this.#client.sendMessage({
      id,
      to: `${to}@${this.#domain}`,
      type: 'chat',
      // A body makes it a chat message for carbons (XEP-0280) and readable by any client.
      body: bodyOf(payload),
      json: payload,
      receipt: { type: 'request' },
    });
    this.#emit('message', record);
    return record;
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

  #wire(): void {
    const client = this.#client;
    client.on('session:started', () => void this.#onSessionStarted());
    client.on('disconnected', () => this.#onDisconnected());
    const onStreamError = (error: StreamError) => {
      // The negotiation failures of spec §8 end the session (StanzaJS sends its own as
      // `policy-violation` with their text), and so does a conflict: with one resource per user
      // (spec §9), two tabs reconnecting would keep evicting each other. Any other
      // `policy-violation` is the API disconnecting a signed-out user: final too. A server
      // shutdown or a dead connection is a drop that the reconnect loop handles.
      const code =
        chatErrorCodeOf(error.text) ??
        (error.condition === 'conflict'
          ? 'replaced'
          : error.condition === 'policy-violation'
            ? 'signed-out'
            : undefined);
      if (code) this.#fail(new ChatError(code, error.text));
    };
    // StanzaJS reports its own failures as 'stream:error' but a <stream:error/> from the
    // server as 'streamError', which its typings leave out.
    client.on('stream:error', onStreamError);
    (client as unknown as { on(event: 'streamError', listener: typeof onStreamError): void }).on(
      'streamError',
      onStreamError,
    );
    client.on('muc:available', (presence) => this.#onOccupant(presence));
    client.on('muc:unavailable', (presence) => this.#onOccupantLeft(presence));
    client.on('message', (message) => {
      if (message.type === 'headline' && message.from === this.#domain) {
        this.#emit('serverNotice', message.body ?? '');
      } else {
        this.#onMessage(message, 'in');
      }
    });
    client.on('carbon:received', (carbon) => {
      const forwarded = carbon.carbon.forward.message;
      if (forwarded && carbon.from === this.jid) this.#onMessage(forwarded, 'in');
    });
    client.on('carbon:sent', (carbon) => {
      const forwarded = carbon.carbon.forward.message;
      if (forwarded && carbon.from === this.jid) this.#onMessage(forwarded, 'out');
    });
    client.on('receipt', (message) => {
      if (message.receipt.id) this.#updateDelivery(message.receipt.id, 'delivered');
    });
    client.on('stanza:acked', (acked) => {
      if (acked.kind === 'message' && acked.stanza.id) {
        this.#updateDelivery(acked.stanza.id, 'sent');
      }
    });
    client.on('stanza:failed', (failed) => {
      if (failed.kind === 'message' && failed.stanza.id) {
        this.#updateDelivery(failed.stanza.id, 'failed');
      }
    });
    client.on('message:error', (message) => {
      if (message.id) this.#updateDelivery(message.id, 'failed');
    });
    client.on('pubsub:published', (event) => {
      if (JID.toBare(event.from) !== this.jid) return;
      for (const item of event.pubsub.items.published) {
        // PEP delivers an item once per subscription and once for +notify: keep the first.
        if (!item.id || this.#seen.has(item.id)) continue;
        this.#remember(item.id);
        const content = item.content as { json?: { status?: string } } | undefined;
        const status = parsePresenceStatus(content?.json?.status);
        if (status) this.#emit('ownPresence', status);
      }
    });
  }

  /** spec §4 session-start duties, after the first connection and after every reconnect. */
  async #onSessionStarted(): Promise<void> {
    this.#sessionLost = new AbortController();
    const lost = this.#sessionLost.signal;
    this.#client.sendPresence();
    await Promise.all([
      this.#discoverIceServers(),
      this.#enableCarbons(),
      this.#ensureStateNodes(),
    ]);
    // StanzaJS would rejoin by itself, but without the password and the presence: we do it.
    await Promise.all(
      [...this.#rooms.values()]
        .filter((entry) => entry.wanted && !entry.joined)
        .map((entry) =>
          this.#join(entry).catch((error: unknown) => this.#log(`rejoining ${entry.jid}`, error)),
        ),
    );
    // Dropped again (or closed) while at it: the next session start takes over.
    if (this.#closing || lost.aborted) return;
    this.#setStatus('connected');
    this.#pendingConnect?.resolve();
    this.#pendingConnect = undefined;
  }

  #onDisconnected(): void {
    this.#sessionLost.abort();
    if (this.#closing) return;
    // Keep StanzaJS from rejoining without password and presence; #onSessionStarted rejoins.
    this.#client.joinedRooms.clear();
    this.#client.joiningRooms.clear();
    for (const entry of this.#rooms.values()) {
      if (!entry.joined) continue;
      entry.joined = false;
      entry.occupants.clear();
      this.#emit('room', snapshotOf(entry));
    }
    this.#setStatus('reconnecting');
  }

  #fail(error: ChatError): void {
    if (this.#closing) return;
    this.#emit('error', error);
    const pending = this.#pendingConnect;
    this.#pendingConnect = undefined;
    void this.close().then(() => pending?.reject(error));
  }

  async #shutDown(): Promise<void> {
    this.#pendingConnect?.reject(new ChatError('not-connected', 'closed'));
    this.#pendingConnect = undefined;
    const client = this.#client;
    if (client.transport) {
      const gone = new Promise<void>((resolve) => client.once('disconnected', () => resolve()));
      void client.disconnect();
      await gone;
    } else {
      // Between reconnect attempts: this cancels the timer.
      void client.disconnect();
    }
    for (const entry of this.#rooms.values()) {
      entry.joined = false;
      entry.occupants.clear();
    }
    this.#setStatus('closed');
  }

  async #join(entry: RoomEntry): Promise<RoomSnapshot> {
    if (!this.#client.sessionStarted) throw new ChatError('not-connected');
    try {
      await this.#untilSessionLost(
        this.#client.joinRoom(entry.jid, entry.nick, {
          ...this.#roomPresence(entry),
          muc: { type: 'join', password: entry.password },
        }),
      );
    } catch (error) {
      entry.joined = false;
      // Dropped mid-join: the next session start tries again.
      if (error instanceof ChatError) throw error;
      entry.wanted = false;
      const condition = (error as Presence).error?.condition;
      if (condition && ROOM_AUTH_ERRORS.has(condition)) {
        entry.auth = { status: false, tries: entry.auth.tries + 1 };
      }
      this.#emit('room', snapshotOf(entry));
      throw new ChatError(
        condition && ROOM_AUTH_ERRORS.has(condition) ? 'room-auth-failed' : 'room-join-failed',
        condition,
      );
    }
    entry.joined = true;
    entry.auth = { status: true, tries: entry.auth.tries };
    if (entry.status) this.#publishState(entry.status);
    const snapshot = snapshotOf(entry);
    this.#emit('room', snapshot);
    return snapshot;
  }

  #recordStatus(entry: RoomEntry, status: PresenceStatus): void {
    entry.status = status;
    // The queue is ordered by when each guest began waiting. A guest that steps Away (its
    // page hidden, spec §4) leaves the open-call set but keeps its time, so it returns to
    // its place, not to the back; any other state ends the wait.
    if (isOpenCall(status)) entry.waitingSince ??= new Date(this.#now()).toISOString();
    else if (status.state !== 'Away') entry.waitingSince = undefined;
  }

  #roomPresence(entry: RoomEntry): Presence {
    const show = this.#show ? { show: this.#show } : {};
    if (!entry.status) return show;
    return {
      ...show,
      status: formatPresenceStatus(entry.status),
      ...(isOpenCall(entry.status) && entry.waitingSince
        ? { frontdeskQueue: { since: new Date(entry.waitingSince) } }
        : {}),
    };
  }

  #onOccupant(presence: ReceivedMUCPresence): void {
    const entry = this.#rooms.get(JID.toBare(presence.from));
    const nick = JID.getResource(presence.from);
    if (!entry || !nick) return;
    const status = parsePresenceStatus(presence.status);
    entry.occupants.set(nick, {
      nick,
      status,
      waitingSince: isOpenCall(status) ? validTime(presence.frontdeskQueue?.since) : undefined,
      show: presence.show,
      self: presence.muc.statusCodes?.includes('110') ?? false,
    });
    if (entry.joined) this.#emit('room', snapshotOf(entry));
  }

  #onOccupantLeft(presence: ReceivedMUCPresence): void {
    const entry = this.#rooms.get(JID.toBare(presence.from));
    const nick = JID.getResource(presence.from);
    if (!entry || !nick) return;
    entry.occupants.delete(nick);
    const codes = presence.muc.statusCodes ?? [];
    if (codes.includes('110')) {
      // Our own occupant went: kicked, banned, room closed, or the server shutting down.
      entry.joined = false;
      entry.occupants.clear();
      if (codes.some((code) => REMOVED_FROM_ROOM.has(code)) || presence.muc.destroy) {
        entry.wanted = false;
      }
    }
    this.#emit('room', snapshotOf(entry));
  }

  #onMessage(message: Message, direction: 'in' | 'out'): void {
    if (message.type !== 'chat' || message.json === undefined || !message.id) return;
    if (this.#seen.has(message.id)) return;
    const parsed = chatMessageSchema.safeParse(message.json);
    if (!parsed.success) {
      this.#log('dropped a chat message that is not ours', parsed.error.issues);
      return;
    }
    const payload = parsed.data;
    // SECURITY: the payload's addresses are the sender's word; only the stanza's addresses
    // are the server's. A message must come from (or, for our sent carbons, go to) whom the
    // payload names, on our domain.
    const peer = JID.parse((direction === 'in' ? message.from : message.to) ?? '');
    const peerName = direction === 'in' ? payload.from : payload.to;
    const ourName = direction === 'in' ? payload.to : payload.from;
    if (peer.domain !== this.#domain || peer.local !== peerName || ourName !== this.username) {
      this.#log('dropped a chat message with forged addresses', { from: message.from });
      return;
    }
    this.#remember(message.id);
    this.#emit('message', {
      id: message.id,
      direction,
      at: new Date().toISOString(),
      delivery: direction === 'in' ? 'delivered' : 'sent',
      payload,
    });
  }

  #updateDelivery(id: string, delivery: DeliveryState): void {
    const current = this.#deliveries.get(id);
    if (current === undefined || DELIVERY_RANK[delivery] <= DELIVERY_RANK[current]) return;
    if (delivery === 'delivered' || delivery === 'failed') this.#deliveries.delete(id);
    else this.#deliveries.set(id, delivery);
    this.#emit('delivery', { id, delivery });
  }

  async #discoverIceServers(): Promise<void> {
    try {
      // INFRA-NOTES: discoverICEServers() always answers []; ask XEP-0215 directly.
      const { services = [] } = await this.#client.getServices(this.#domain, undefined, '2');
      this.#iceServers = services.flatMap(iceServerOf);
    } catch (error) {
      this.#log('ICE server discovery failed', error);
    }
  }

  async #enableCarbons(): Promise<void> {
    try {
      await this.#client.enableCarbons();
    } catch (error) {
      this.#log('enabling carbons failed', error);
    }
  }

  /**
   * spec §4: one node per presence state, created ("node already exists" tolerated) and
   * subscribed. They are PEP nodes on the user's own JID (INFRA-NOTES: on a shared pubsub
   * service another user could create a name first and own it).
   */
  async #ensureStateNodes(): Promise<void> {
    const client = this.#client;
    await Promise.all(
      presenceStateSchema.options.map(async (state) => {
        const node = `${STATE_NODE_PREFIX}${state}`;
        try {
          await client.createNode(this.jid, node);
        } catch (error) {
          if ((error as { error?: { condition?: string } }).error?.condition !== 'conflict') {
            this.#log(`creating node ${node} failed`, error);
            return;
          }
        }
        try {
          // The full JID: a bare-JID subscription gets nothing until presence is processed.
          await client.subscribeToNode(this.jid, { node, jid: client.jid });
        } catch (error) {
          this.#log(`subscribing to node ${node} failed`, error);
        }
      }),
    );
  }

  #publishState(status: PresenceStatus): void {
    const node = `${STATE_NODE_PREFIX}${status.state}`;
    const item = { itemType: NS_JSON, json: { status: formatPresenceStatus(status) } };
    this.#client
      .publish(this.jid, node, item, this.#client.nextId())
      .catch((error: unknown) => this.#log(`publishing to ${node} failed`, error));
  }

  #untilSessionLost<T>(promise: Promise<T>): Promise<T> {
    const signal = this.#sessionLost.signal;
    if (signal.aborted) return Promise.reject(new ChatError('not-connected'));
    return new Promise<T>((resolve, reject) => {
      const lost = () => reject(new ChatError('not-connected'));
      signal.addEventListener('abort', lost, { once: true });
      promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', lost));
    });
  }

  #remember(id: string): void {
    this.#seen.add(id);
    if (this.#seen.size > SEEN_IDS_KEPT) {
      this.#seen.delete(this.#seen.values().next().value as string);
    }
  }

  #setStatus(status: ChatStatus): void {
    if (this.#status === status || this.#status === 'closed') return;
    this.#status = status;
    this.#emit('status', status);
  }

  #emit<K extends keyof ChatEvents>(event: K, payload: ChatEvents[K]): void {
    for (const listener of this.#listeners.get(event) ?? []) {
      try {
        listener(payload);
      } catch (error) {
        this.#log(`a ${event} listener threw`, error);
      }
    }
  }
}

function snapshotOf(entry: RoomEntry): RoomSnapshot {
  return {
    jid: entry.jid,
    nick: entry.nick,
    joined: entry.joined,
    auth: { ...entry.auth },
    occupants: [...entry.occupants.values()].map((occupant) => ({ ...occupant })),
  };
}

function validTime(date: Date | undefined): string | undefined {
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
}

function bodyOf(payload: ChatMessage): string {
  const { message } = payload;
  return typeof message === 'string' ? message : `${message.name}: ${message.url}`;
}

/** An XEP-0215 service as RTCPeerConnection takes it; other kinds are left out. */
function iceServerOf(service: ExternalService): IceServer[] {
  const { type, host, port } = service;
  if (!host || !type || !['stun', 'stuns', 'turn', 'turns'].includes(type)) return [];
  const address = host.includes(':') ? `[${host}]` : host;
  const transport =
    type.startsWith('turn') && service.transport ? `?transport=${service.transport}` : '';
  const url = `${type}:${address}${port ? `:${port}` : ''}${transport}`;
  return [
    {
      urls: url,
      ...(service.username ? { username: service.username } : {}),
      ...(service.password ? { credential: service.password } : {}),
    },
  ];
}
