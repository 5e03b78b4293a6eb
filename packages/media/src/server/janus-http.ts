// Node's one client for Janus's HTTP (REST) transport: the API's room administration, the bench's
// load generators and the tests all hold their sessions through it (browsers use janus.js).
import { randomUUID } from 'node:crypto';

export const VIDEOROOM_PLUGIN = 'janus.plugin.videoroom';

/** A session description as Janus carries it next to a plugin message. */
export type Jsep = { type: 'offer' | 'answer'; sdp: string };

/** A plugin's answer: its data, and the session description that came with it, if any. */
export type PluginReply = { data: Record<string, unknown>; jsep?: Jsep };

export interface JanusHttpOptions {
  /** Janus REST endpoint, e.g. `http://127.0.0.1:8088/janus`. */
  readonly httpUrl: string;
  /** A signed Janus token (token_auth); every request of the session carries it. */
  readonly token?: string;
  /** Deadline of each request; none when unset. The long poll has none either way. */
  readonly timeoutMs?: number;
  /**
   * Opens the long poll with the session, as janus.js does in a browser, so that a load
   * generator's sessions talk to Janus as the tabs they stand for. Otherwise it opens at the
   * first asynchronous answer.
   */
  readonly pollFromStart?: boolean;
}

/**
 * What Janus refused, with the code it gave: a core error (403 unauthorized token, 405 plugin
 * not allowed), a plugin's `error_code` (videoroom: 426 no such room, 427 room exists, 433
 * unauthorized), or the HTTP status when the transport itself failed. A request that gets no
 * answer in time fails with a `TimeoutError` instead, as a fetch past its deadline does.
 */
export class JanusError extends Error {
  override readonly name = 'JanusError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

type JanusReply = {
  janus: string;
  transaction?: string;
  sender?: number;
  data?: { id: number };
  error?: { code: number; reason: string };
  plugindata?: { plugin: string; data: Record<string, unknown> };
  jsep?: Jsep;
};

/** How long a plugin's asynchronous answer, or a PeerConnection coming up, may take. */
const EVENT_TIMEOUT_MS = 15_000;
/** Events one long poll may carry: a busy session drains its queue in fewer round trips. */
const LONG_POLL_MAX_EVENTS = 20;

function pluginReply(reply: JanusReply): PluginReply {
  const data = reply.plugindata?.data ?? {};
  if (typeof data.error_code === 'number')
    throw new JanusError(data.error_code, String(data.error));
  return reply.jsep ? { data, jsep: reply.jsep } : { data };
}

async function post(options: JanusHttpOptions, url: string, body: object): Promise<JanusReply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      transaction: randomUUID(),
      ...(options.token === undefined ? {} : { token: options.token }),
      ...body,
    }),
    ...(options.timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(options.timeoutMs) }),
  });
  if (!response.ok) throw new JanusError(response.status, `Janus HTTP ${response.status}`);
  const reply = (await response.json()) as JanusReply;
  if (reply.janus === 'error' || reply.error) {
    throw new JanusError(reply.error?.code ?? 0, reply.error?.reason ?? 'Janus error');
  }
  return reply;
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new DOMException(`Janus: ${what} within ${EVENT_TIMEOUT_MS} ms`, 'TimeoutError')),
      EVENT_TIMEOUT_MS,
    );
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/**
 * One Janus session, as a browser tab would hold it. Its events arrive through a long poll,
 * which also keeps the session alive. Unless asked to open it at once, the poll waits for the
 * first asynchronous answer (Janus queues a session's events until they are fetched), so that a
 * session of synchronous requests alone (room administration) never holds one open.
 */
export class JanusSession {
  /** Asynchronous plugin answers, by transaction, registered before the request is sent. */
  private readonly waiting = new Map<string, (reply: JanusReply) => void>();
  private readonly polling = new AbortController();
  private listening = false;
  /** What says a call is in trouble: Janus's own `hangup` and `slowlink`, a failed long poll. */
  readonly trouble: string[] = [];
  /** Handles whose PeerConnection Janus reported up, and who waits for one. */
  private readonly up = new Set<number>();
  private readonly waitingUp = new Map<number, () => void>();

  private constructor(
    private readonly options: JanusHttpOptions,
    readonly id: number,
  ) {}

  private get url(): string {
    return `${this.options.httpUrl}/${this.id}`;
  }

  static async create(options: JanusHttpOptions): Promise<JanusSession> {
    const reply = await post(options, options.httpUrl, { janus: 'create' });
    if (!reply.data) throw new JanusError(0, `Janus create answered ${reply.janus}`);
    const session = new JanusSession(options, reply.data.id);
    if (options.pollFromStart) session.listen();
    return session;
  }

  async attach(plugin: string): Promise<JanusHandle> {
    const reply = await post(this.options, this.url, { janus: 'attach', plugin });
    if (!reply.data) throw new JanusError(0, `Janus attach answered ${reply.janus}`);
    return new JanusHandle(this, reply.data.id);
  }

  /**
   * Sends a plugin message and resolves with its answer: synchronous requests answer in the HTTP
   * reply; the others answer `ack` there and the result comes through the long poll — possibly
   * before the HTTP reply, which is why the waiter exists before the request leaves.
   */
  async message(handleId: number, body: object, jsep?: Jsep): Promise<PluginReply> {
    const transaction = randomUUID();
    const event = new Promise<JanusReply>((resolve) => this.waiting.set(transaction, resolve));
    let reply: JanusReply;
    try {
      reply = await post(this.options, `${this.url}/${handleId}`, {
        janus: 'message',
        transaction,
        body,
        ...(jsep ? { jsep } : {}),
      });
    } catch (error) {
      this.waiting.delete(transaction);
      throw error;
    }
    if (reply.janus !== 'ack') {
      this.waiting.delete(transaction);
      return pluginReply(reply);
    }
    this.listen();
    return pluginReply(await withTimeout(event, `no answer to ${JSON.stringify(body)}`));
  }

  /**
   * Resolves once Janus reports the handle's PeerConnection up (`webrtcup`): a publisher's feed
   * cannot be subscribed to before (videoroom error 428, no such feed).
   */
  webrtcUp(handleId: number): Promise<void> {
    if (this.up.has(handleId)) return Promise.resolve();
    const up = new Promise<void>((resolve) => this.waitingUp.set(handleId, resolve));
    this.listen();
    return withTimeout(up, `no webrtcup for handle ${handleId}`);
  }

  /** Ends the session (Janus hangs up its handles) and the long poll. Never throws. */
  async destroy(): Promise<void> {
    this.polling.abort();
    await post(this.options, this.url, { janus: 'destroy' }).catch(() => undefined);
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    void this.poll();
  }

  private async poll(): Promise<void> {
    const token =
      this.options.token === undefined ? '' : `&token=${encodeURIComponent(this.options.token)}`;
    while (!this.polling.signal.aborted) {
      let events: JanusReply[];
      try {
        const response = await fetch(`${this.url}?maxev=${LONG_POLL_MAX_EVENTS}${token}`, {
          signal: this.polling.signal,
        });
        const body = (await response.json()) as JanusReply | JanusReply[];
        events = Array.isArray(body) ? body : [body];
      } catch (error) {
        if (this.polling.signal.aborted) return;
        this.trouble.push(`long poll failed: ${String(error)}`);
        return;
      }
      for (const event of events) this.dispatch(event);
    }
  }

  private dispatch(event: JanusReply): void {
    const waiter = event.transaction ? this.waiting.get(event.transaction) : undefined;
    if (waiter && event.transaction) {
      this.waiting.delete(event.transaction);
      waiter(event);
    } else if (event.janus === 'webrtcup' && event.sender !== undefined) {
      this.up.add(event.sender);
      this.waitingUp.get(event.sender)?.();
    } else if (event.janus === 'hangup' || event.janus === 'slowlink') {
      this.trouble.push(event.janus);
    }
  }
}

/** A plugin handle of a {@link JanusSession}. */
export class JanusHandle {
  constructor(
    private readonly session: JanusSession,
    readonly id: number,
  ) {}

  message(body: object, jsep?: Jsep): Promise<PluginReply> {
    return this.session.message(this.id, body, jsep);
  }

  webrtcUp(): Promise<void> {
    return this.session.webrtcUp(this.id);
  }
}

/** Runs `use` on one handle of a throw-away session, which is destroyed whatever happens. */
export async function withPluginHandle<T>(
  options: JanusHttpOptions,
  plugin: string,
  use: (handle: JanusHandle) => Promise<T>,
): Promise<T> {
  const session = await JanusSession.create(options);
  try {
    return await use(await session.attach(plugin));
  } finally {
    await session.destroy();
  }
}
