import { CHAT_MAX_RECONNECT_BACKOFF, CHAT_RESOURCE, type IceServer } from '@frontdesk/protocol';
import { createClient, type Agent } from 'stanza';
import type { ExternalService, StreamError } from 'stanza/protocol';
import type { SessionContext } from './context.ts';
import { ChatError, chatErrorCodeOf } from './errors.ts';
import type { Rooms } from './rooms.ts';
import type { StateNodes } from './state-nodes.ts';

/**
 * How long to wait before reconnect attempt `attempt` (1 for the first after a drop): StanzaJS
 * waits 2–3 s first, too long when a lost node's clients can be on another at once; this starts
 * at 0.5–1.5 s and doubles up to spec §9's CHAT_MAX_RECONNECT_BACKOFF (10 s) apart. The random
 * second spreads the clients of a lost node over the one that takes them.
 */
export function reconnectDelayMs(attempt: number, random = Math.random()): number {
  return 1000 * Math.min(2 ** (attempt - 2) + random, CHAT_MAX_RECONNECT_BACKOFF);
}

/**
 * How often the server is asked to answer (an XEP-0198 ack request, or an XEP-0199 ping without
 * stream management), and how long it has to: a frozen server (a node stopped, not dead) keeps
 * the TCP connection open and silent, and StanzaJS's default (every 300 s, 15 s to answer) left
 * its clients there for minutes. Within 6–10 s the client drops it and reconnects, through the
 * load balancer, to a live node (decision 0040); one small stanza every 4 s is its cost. The 6 s
 * to answer let a loaded relay or server stall for seconds without every client on it dropping
 * and reconnecting at once.
 */
const KEEPALIVE_INTERVAL_S = 4;
const KEEPALIVE_TIMEOUT_S = 6;

/** What StanzaJS keeps of its reconnect loop, which its typings mark private. */
interface ReconnectState {
  sessionTerminating?: boolean;
  reconnectAttempts: number;
  reconnectTimer?: ReturnType<typeof setTimeout>;
}

/** The StanzaJS client of a session, set up as spec §9 wants it. */
export function createChatClient(options: {
  url: string;
  /** The bare JID. */
  jid: string;
  token: string;
  resource: string | undefined;
}): Agent {
  const client = createClient({
    jid: options.jid,
    password: options.token,
    resource: options.resource ?? CHAT_RESOURCE,
    // spec §9: reconnect by itself, at most 10 s apart, and never resume a stream (a
    // resumed session would keep a vanished guest "present" in rooms for minutes).
    autoReconnect: true,
    maxReconnectBackoff: CHAT_MAX_RECONNECT_BACKOFF,
    allowResumption: false,
    transports: { websocket: options.url, bosh: false },
  });
  // docs/operations.md: StanzaJS prefers X-OAUTH2, which ejabberd checks against its own OAuth
  // table, not our JWT. The server refuses it too; this keeps the client from asking.
  client.sasl.disable('X-OAUTH2');
  // SECURITY: no Jingle. ejabberd routes an IQ between any two users of the domain, whatever
  // their rosters, and StanzaJS's Jingle plugin answers a session-initiate from anyone by keeping
  // a session for it (in a browser, with a new RTCPeerConnection): a guest could pile them up in
  // an agent's console. A p2p call is signalled with our own element instead (signals.ts).
  client.removeAllListeners('iq:set:jingle');
  client.on('iq:set:jingle', (iq) =>
    client.sendIQError(iq, { error: { type: 'cancel', condition: 'service-unavailable' } }),
  );
  return client;
}

/**
 * The life of a session's connection: connecting, the session-start duties after the first
 * connection and every reconnect (spec §4), drops, the stream errors that end it, and closing.
 */
export class Connection {
  readonly #ctx: SessionContext;
  readonly #rooms: Rooms;
  readonly #stateNodes: StateNodes;
  #iceServers: IceServer[] = [];
  #pendingConnect: { resolve: () => void; reject: (error: ChatError) => void } | undefined;
  #closing: Promise<void> | undefined;

  constructor(ctx: SessionContext, rooms: Rooms, stateNodes: StateNodes) {
    this.#ctx = ctx;
    this.#rooms = rooms;
    this.#stateNodes = stateNodes;
    const { client } = ctx;
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
  }

  get iceServers(): readonly IceServer[] {
    return this.#iceServers;
  }

  connect(): Promise<void> {
    if (this.#ctx.status() !== 'idle') return Promise.reject(new Error('connect() runs once'));
    this.#ctx.setStatus('connecting');
    // spec §9: the keep-alive notices dead connections that a browser would not report.
    // StanzaJS restarts it with every stream.
    this.#ctx.client.enableKeepAlive({
      interval: KEEPALIVE_INTERVAL_S,
      timeout: KEEPALIVE_TIMEOUT_S,
    });
    return new Promise((resolve, reject) => {
      this.#pendingConnect = { resolve, reject };
      void this.#ctx.client.connect();
    });
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutDown();
    return this.#closing;
  }

  /** spec §4 session-start duties, after the first connection and after every reconnect. */
  async #onSessionStarted(): Promise<void> {
    const lost = this.#ctx.sessionLost.renew();
    this.#ctx.client.sendPresence();
    await Promise.all([
      this.#discoverIceServers(),
      this.#enableCarbons(),
      this.#stateNodes.ensure(),
    ]);
    await this.#rooms.rejoin();
    // Dropped again (or closed) while at it: the next session start takes over.
    if (this.#closing || lost.aborted) return;
    this.#rooms.watch();
    this.#ctx.setStatus('connected');
    this.#pendingConnect?.resolve();
    this.#pendingConnect = undefined;
  }

  #onDisconnected(): void {
    this.#ctx.sessionLost.abort();
    if (this.#closing) return;
    this.#hastenReconnect();
    this.#rooms.dropped();
    this.#ctx.setStatus('reconnecting');
  }

  /** StanzaJS has just set its reconnect timer (it emits 'disconnected' after): ours replaces it. */
  #hastenReconnect(): void {
    const { client } = this.#ctx;
    const state = client as unknown as ReconnectState;
    if (state.sessionTerminating || state.reconnectTimer === undefined) return;
    clearTimeout(state.reconnectTimer);
    // disconnect() clears this timer as it would have cleared StanzaJS's own.
    state.reconnectTimer = setTimeout(
      () => void client.connect(),
      reconnectDelayMs(state.reconnectAttempts),
    );
  }

  #fail(error: ChatError): void {
    if (this.#closing) return;
    this.#ctx.emit('error', error);
    const pending = this.#pendingConnect;
    this.#pendingConnect = undefined;
    void this.close().then(() => pending?.reject(error));
  }

  async #shutDown(): Promise<void> {
    this.#pendingConnect?.reject(new ChatError('not-connected', 'closed'));
    this.#pendingConnect = undefined;
    const { client } = this.#ctx;
    if (client.transport) {
      const gone = new Promise<void>((resolve) => client.once('disconnected', () => resolve()));
      void client.disconnect();
      await gone;
    } else {
      // Between reconnect attempts: this cancels the timer.
      void client.disconnect();
    }
    this.#rooms.closed();
    this.#ctx.setStatus('closed');
  }

  async #discoverIceServers(): Promise<void> {
    const { client, domain, log } = this.#ctx;
    try {
      // docs/operations.md: discoverICEServers() always answers []; ask XEP-0215 directly.
      const { services = [] } = await client.getServices(domain, undefined, '2');
      this.#iceServers = services.flatMap(iceServerOf);
    } catch (error) {
      log('ICE server discovery failed', error);
    }
  }

  async #enableCarbons(): Promise<void> {
    try {
      await this.#ctx.client.enableCarbons();
    } catch (error) {
      this.#ctx.log('enabling carbons failed', error);
    }
  }
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
