import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { WebSocket } from 'ws';

type JanusReply = {
  janus: string;
  data?: { id?: number };
  error?: { code: number; reason: string };
  plugindata?: { data: Record<string, unknown> };
};

/**
 * A Janus client as a browser page has one: janus.js's messages over the API's `/janus-ws`, the
 * one way to Janus from outside (Janus listens on loopback only).
 */
export class JanusClient {
  private session = 0;
  private token = '';
  private readonly waiting = new Map<string, (reply: JanusReply) => void>();
  /** Resolves when the connection closes: the gate hangs up when its Janus goes. */
  readonly closed: Promise<void>;
  private constructor(private readonly socket: WebSocket) {
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('message', (data) => {
      const reply = JSON.parse(String(data)) as JanusReply & { transaction?: string };
      // Janus acknowledges asynchronous requests first; their answer follows as an event.
      if (reply.janus === 'ack' || !reply.transaction) return;
      this.waiting.get(reply.transaction)?.(reply);
      this.waiting.delete(reply.transaction);
    });
  }

  static async open(url: string, janusToken: string): Promise<JanusClient> {
    const socket = new WebSocket(url, 'janus-protocol');
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const client = new JanusClient(socket);
    const created = await client.send({ janus: 'create', token: janusToken });
    client.session = Number(created.data?.id);
    expect(client.session).toBeGreaterThan(0);
    client.token = janusToken;
    return client;
  }

  send(message: Record<string, unknown>): Promise<JanusReply> {
    const transaction = randomBytes(8).toString('hex');
    const reply = new Promise<JanusReply>((resolve) => this.waiting.set(transaction, resolve));
    this.socket.send(
      JSON.stringify({
        transaction,
        token: this.token,
        ...(this.session ? { session_id: this.session } : {}),
        ...message,
      }),
    );
    return reply;
  }

  /** A videoroom handle; `request` answers the plugin's data, or the gate's or Janus's error. */
  async videoroom(plugin = 'janus.plugin.videoroom') {
    const attached = await this.send({ janus: 'attach', plugin });
    if (attached.janus !== 'success') return { attached, request: null };
    const handle = Number(attached.data?.id);
    return {
      attached,
      request: async (body: Record<string, unknown>) => {
        const reply = await this.send({ janus: 'message', handle_id: handle, body });
        return reply.janus === 'error'
          ? { refused: reply.error }
          : { data: reply.plugindata?.data ?? {} };
      },
    };
  }

  close(): void {
    this.socket.close();
  }
}
