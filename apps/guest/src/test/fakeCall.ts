import {
  Emitter,
  type CallQualityBody,
  type CallSignal,
  type ChatFile,
  type ConnectionStatus,
  type PresenceStatus,
} from '@frontdesk/protocol';
import type {
  ChatEvents,
  ChatMessageRecord,
  ChatSessionOptions,
  JoinRoomOptions,
  RoomSnapshot,
  TypingState,
} from '@frontdesk/chat';
import type {
  MediaSessionEvents,
  MediaSessionOptions,
  MediaState,
  P2pSessionOptions,
} from '@frontdesk/media';
// Not the package's main entry, which brings janus.js (a browser-only script) along.
import { INITIAL_MEDIA_STATE } from '@frontdesk/media/p2p';
import type { CallAdapters, GuestChat, GuestMedia } from '../features/call/connections.ts';

/** A listener that throws fails the test that made it throw. */
function rethrow(_event: string, error: unknown): never {
  throw error;
}

/** The chat session of a call, as far as connections.ts uses it: every call is recorded. */
export class FakeChat extends Emitter<ChatEvents> implements GuestChat {
  status: ConnectionStatus = 'idle';
  readonly joins: { room: string; options: JoinRoomOptions }[] = [];
  readonly presences: { room: string; status: PresenceStatus }[] = [];
  readonly sent: { to: string; message: string | ChatFile }[] = [];
  readonly ended: string[] = [];
  readonly chatStates: { to: string; state: TypingState }[] = [];
  readonly displayed: string[] = [];
  readonly signals: { to: string; signal: CallSignal }[] = [];
  readonly #signalListeners = new Set<(from: string, signal: CallSignal) => void>();
  closed = false;
  readonly #rooms = new Map<string, RoomSnapshot>();

  constructor(readonly options?: ChatSessionOptions) {
    super(rethrow);
  }

  connect(): Promise<void> {
    this.status = 'connected';
    return Promise.resolve();
  }

  joinRoom(room: string, options: JoinRoomOptions): Promise<RoomSnapshot> {
    this.joins.push({ room, options });
    const snapshot: RoomSnapshot = {
      jid: room,
      nick: options.nick,
      joined: true,
      auth: { status: true, tries: 1 },
      occupants: [],
    };
    this.#rooms.set(room, snapshot);
    return Promise.resolve(snapshot);
  }

  room(room: string): RoomSnapshot | undefined {
    return this.#rooms.get(room);
  }

  /** What the server would tell: `occupants` are now in `room`. */
  occupantsChanged(room: string, occupants: RoomSnapshot['occupants']): void {
    const joined = this.#rooms.get(room);
    if (!joined) throw new Error(`not in ${room}`);
    const snapshot = { ...joined, occupants };
    this.#rooms.set(room, snapshot);
    this.emit('room', snapshot);
  }

  setPresence(room: string, status: PresenceStatus): void {
    this.presences.push({ room, status });
  }

  sendMessage(to: string, message: string | ChatFile): ChatMessageRecord {
    this.sent.push({ to, message });
    return {
      id: `m${this.sent.length}`,
      direction: 'out',
      at: new Date(0).toISOString(),
      delivery: 'sending',
      payload: { sender: 'GUEST', to, from: 'guest', message },
    };
  }

  sendChatState(to: string, state: TypingState): void {
    this.chatStates.push({ to, state });
  }

  markDisplayed(record: ChatMessageRecord): void {
    this.displayed.push(record.id);
  }

  sendSignal(to: string, signal: CallSignal): Promise<void> {
    this.signals.push({ to, signal });
    return Promise.resolve();
  }

  onSignal(listener: (from: string, signal: CallSignal) => void): () => void {
    this.#signalListeners.add(listener);
    return () => this.#signalListeners.delete(listener);
  }

  /** What the chat server would hand on: `from` sent this signal. */
  signalArrived(from: string, signal: CallSignal): void {
    for (const listener of this.#signalListeners) listener(from, signal);
  }

  async endCall(room: string, options: { endMedia: () => void | Promise<void> }): Promise<void> {
    this.ended.push(room);
    await options.endMedia();
  }

  close(): Promise<void> {
    this.closed = true;
    this.status = 'closed';
    return Promise.resolve();
  }
}

/** The media session of a call, as far as connections.ts and the listeners use it. */
export class FakeMedia extends Emitter<MediaSessionEvents> implements GuestMedia {
  state: MediaState = { ...INITIAL_MEDIA_STATE };
  readonly calls: unknown[][] = [];
  connected = false;
  closed = false;

  /** What the flow made the session with (set by {@link fakeCallAdapters}). */
  options: MediaSessionOptions | undefined;
  /** What the flow made a p2p call's session with. */
  p2pOptions: P2pSessionOptions | undefined;
  /** A p2p call's peer, as the flow named it. */
  peer: string | undefined;
  /** When the flow said the call was accepted (`performance.now()`). */
  acceptedAt: number | undefined;
  /** What the session measured of the call: a relayed call with some loss and one reconnect. */
  readonly quality: CallQualityBody = {
    setupMs: 1840,
    localCandidateType: 'relay',
    remoteCandidateType: 'host',
    relayProtocol: 'tls',
    packetsReceived: 41_230,
    packetsLost: 112,
    jitterMs: 6.5,
    roundTripMs: 88.2,
    sendKbps: 912.4,
    receiveKbps: 1104.9,
    reconnects: 1,
    iceFailed: false,
  };
  /** How many times the flow asked for the quality report, and whether the media was closed by then. */
  readonly qualityAsked: { closed: boolean }[] = [];

  constructor() {
    super(rethrow);
  }

  connect(): Promise<void> {
    this.connected = true;
    return Promise.resolve();
  }

  setMuted(kind: 'audio' | 'video', muted: boolean): Promise<void> {
    this.calls.push(['setMuted', kind, muted]);
    return Promise.resolve();
  }

  switchCamera(...args: Parameters<GuestMedia['switchCamera']>): Promise<void> {
    this.calls.push(['switchCamera', ...args]);
    return Promise.resolve();
  }

  switchMicrophone(deviceId: string): Promise<void> {
    this.calls.push(['switchMicrophone', deviceId]);
    return Promise.resolve();
  }

  setPeer(username: string): void {
    this.peer = username;
  }

  markAccepted(atMs?: number): void {
    this.acceptedAt = atMs;
  }

  qualityReport(): Promise<CallQualityBody> {
    this.qualityAsked.push({ closed: this.closed });
    return Promise.resolve(this.quality);
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}

/** Adapters that hand out the given fakes (one call's worth). */
export function fakeCallAdapters(chat: FakeChat, media: FakeMedia): () => Promise<CallAdapters> {
  return () =>
    Promise.resolve({
      createChat: () => chat,
      createMedia: (options) => {
        media.options = options;
        return media;
      },
      createP2pMedia: (options) => {
        media.p2pOptions = options;
        return media;
      },
    });
}

/** What `GET /config` answers a call against the fakes: chat and media servers that are the fakes. */
export const FAKE_CALL_CONFIG = {
  apiBase: '/api',
  xmppWebsocketUrl: 'ws://chat.test/ws',
  xmppDomain: 'frontdesk.localhost',
  janusWebsocketUrl: 'ws://media.test/ws',
  errorReporting: null,
};

/** The chat and media credentials a guest signed in as `nick` holds for a call (an hour's). */
export function fakeCallServices(nick: string) {
  return {
    xmpp: { jid: `${nick}@frontdesk.localhost`, password: 'xmpp-token' },
    janusToken: 'janus-token',
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  };
}

/** The store's sign-in of guest `username` (jabber username `nick`), ready for a call. */
export function signedInGuest(username: string, nick: string) {
  return {
    username,
    credential: 'secret',
    access_token: 'token',
    accessTokenExpiresAt: null,
    jabberusername: nick,
    services: fakeCallServices(nick),
    location: null,
  };
}
