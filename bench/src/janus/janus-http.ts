import { randomUUID } from 'node:crypto';

/** A session description as Janus carries it next to a plugin message. */
export type Jsep = { type: 'offer' | 'answer'; sdp: string };

type JanusReply = {
  janus: string;
  transaction?: string;
  sender?: number;
  data?: { id: number };
  error?: { code: number; reason: string };
  plugindata?: { plugin: string; data: Record<string, unknown> };
  jsep?: Jsep;
};

/** A plugin's answer: its data, and the session description that came with it, if any. */
export type PluginReply = { data: Record<string, unknown>; jsep?: Jsep };

function pluginReply(reply: JanusReply): PluginReply {
  if (reply.janus === 'error') {
    throw new Error(`Janus error ${reply.error?.code}: ${reply.error?.reason}`);
  }
  const data = reply.plugindata?.data ?? {};
  if (typeof data.error_code === 'number') {
    throw new Error(`videoroom error ${data.error_code}: ${String(data.error)}`);
  }
  return reply.jsep ? { data, jsep: reply.jsep } : { data };
}

/**
 * One Janus session over the REST transport, as a browser tab would hold it: a long poll
 * receives its events, and every request carries the signed token.
 */
export class JanusSession {
  /** Asynchronous plugin answers, by transaction, registered before the request is sent. */
  private readonly waiting = new Map<string, (reply: JanusReply) => void>();
  private readonly polling = new AbortController();
  /** Events Janus sent on its own: `hangup` and `slowlink` say a call is in trouble. */
  readonly trouble: string[] = [];
  /** Handles whose PeerConnection Janus reported up, and who waits for one. */
  private readonly up = new Set<number>();
  private readonly waitingUp = new Map<number, () => void>();

  private constructor(
    private readonly url: string,
    private readonly token: string,
  ) {}

  static async create(httpUrl: string, token: string): Promise<JanusSession> {
    const reply = await post(httpUrl, { janus: 'create', token });
    if (!reply.data) throw new Error(`Janus create failed: ${JSON.stringify(reply)}`);
    const session = new JanusSession(`${httpUrl}/${reply.data.id}`, token);
    void session.poll();
    return session;
  }

  /** Attaches the videoroom plugin: one handle per publisher or subscriber. */
  async attach(): Promise<JanusHandle> {
    const reply = await post(this.url, {
      janus: 'attach',
      plugin: 'janus.plugin.videoroom',
      token: this.token,
    });
    if (!reply.data) throw new Error(`Janus attach failed: ${JSON.stringify(reply)}`);
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
    const reply = await post(`${this.url}/${handleId}`, {
      janus: 'message',
      transaction,
      token: this.token,
      body,
      ...(jsep ? { jsep } : {}),
    });
    if (reply.janus !== 'ack') {
      this.waiting.delete(transaction);
      return pluginReply(reply);
    }
    return pluginReply(await withTimeout(event, 15_000, `no answer to ${JSON.stringify(body)}`));
  }

  /**
   * Resolves once Janus reports the handle's PeerConnection up (`webrtcup`): a publisher's feed
   * cannot be subscribed to before (videoroom error 428, no such feed).
   */
  webrtcUp(handleId: number): Promise<void> {
    if (this.up.has(handleId)) return Promise.resolve();
    const up = new Promise<void>((resolve) => this.waitingUp.set(handleId, resolve));
    return withTimeout(up, 15_000, `no webrtcup for handle ${handleId}`);
  }

  private async poll(): Promise<void> {
    while (!this.polling.signal.aborted) {
      let events: JanusReply[];
      try {
        const response = await fetch(
          `${this.url}?maxev=20&token=${encodeURIComponent(this.token)}`,
          {
            signal: this.polling.signal,
          },
        );
        const body = (await response.json()) as JanusReply | JanusReply[];
        events = Array.isArray(body) ? body : [body];
      } catch (error) {
        if (this.polling.signal.aborted) return;
        this.trouble.push(`long poll failed: ${String(error)}`);
        return;
      }
      for (const event of events) {
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
  }

  /** Ends the session (Janus hangs up its handles) and the long poll. Idempotent enough. */
  async destroy(): Promise<void> {
    this.polling.abort();
    await post(this.url, { janus: 'destroy', token: this.token }).catch(() => undefined);
  }
}

/** A videoroom handle of a {@link JanusSession}. */
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

async function post(url: string, body: object): Promise<JanusReply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ transaction: randomUUID(), ...body }),
  });
  return (await response.json()) as JanusReply;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`Janus: ${what} within ${ms} ms`)), ms).unref(),
    ),
  ]);
}
