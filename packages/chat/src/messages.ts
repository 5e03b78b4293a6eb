import {
  chatMessageSchema,
  type ChatFile,
  type ChatMessage,
  type ChatSender,
} from '@frontdesk/protocol';
import { JID } from 'stanza';
import type { Message } from 'stanza/protocol';
import type { SessionContext } from './context.ts';
import { ChatError } from './errors.ts';
import type { ChatMessageRecord, DeliveryState } from './types.ts';

const DELIVERY_RANK: Record<DeliveryState, number> = {
  sending: 0,
  sent: 1,
  delivered: 2,
  failed: 2,
};

/**
 * One-to-one chat messages (spec §7): sending texts and files, receiving them and this user's
 * other sessions' (carbons), their delivery states, and the server's own notices.
 */
export class Messages {
  readonly #ctx: SessionContext;
  readonly #sender: ChatSender;
  readonly #deliveries = new Map<string, DeliveryState>();

  constructor(ctx: SessionContext, sender: ChatSender) {
    this.#ctx = ctx;
    this.#sender = sender;
    const { client } = ctx;
    client.on('message', (message) => {
      if (message.type === 'headline' && message.from === ctx.domain) {
        ctx.emit('serverNotice', message.body ?? '');
      } else {
        this.#onMessage(message, 'in');
      }
    });
    client.on('carbon:received', (carbon) => {
      const forwarded = carbon.carbon.forward.message;
      if (forwarded && carbon.from === ctx.jid) this.#onMessage(forwarded, 'in');
    });
    client.on('carbon:sent', (carbon) => {
      const forwarded = carbon.carbon.forward.message;
      if (forwarded && carbon.from === ctx.jid) this.#onMessage(forwarded, 'out');
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
  }

  send(to: string, message: string | ChatFile): ChatMessageRecord {
    if (this.#ctx.status() !== 'connected') throw new ChatError('not-connected');
    const { client } = this.#ctx;
    const payload = chatMessageSchema.parse({
      sender: this.#sender,
      to,
      from: this.#ctx.username,
      message,
    });
    const id = client.nextId();
    const record: ChatMessageRecord = {
      id,
      direction: 'out',
      at: new Date().toISOString(),
      delivery: 'sending',
      payload,
    };
    this.#deliveries.set(id, 'sending');
    this.#ctx.seen.remember(id);
    client.sendMessage({
      id,
      to: `${to}@${this.#ctx.domain}`,
      type: 'chat',
      // A body makes it a chat message for carbons (XEP-0280) and readable by any client.
      body: bodyOf(payload),
      json: payload,
      receipt: { type: 'request' },
    });
    this.#ctx.emit('message', record);
    return record;
  }

  #onMessage(message: Message, direction: 'in' | 'out'): void {
    const ctx = this.#ctx;
    if (message.type !== 'chat' || message.json === undefined || !message.id) return;
    if (ctx.seen.has(message.id)) return;
    const parsed = chatMessageSchema.safeParse(message.json);
    if (!parsed.success) {
      ctx.log('dropped a chat message that is not ours', parsed.error.issues);
      return;
    }
    const payload = parsed.data;
    // SECURITY: the payload's addresses are the sender's word; only the stanza's addresses
    // are the server's. A message must come from (or, for our sent carbons, go to) whom the
    // payload names, on our domain.
    const peer = JID.parse((direction === 'in' ? message.from : message.to) ?? '');
    const peerName = direction === 'in' ? payload.from : payload.to;
    const ourName = direction === 'in' ? payload.to : payload.from;
    if (peer.domain !== ctx.domain || peer.local !== peerName || ourName !== ctx.username) {
      ctx.log('dropped a chat message with forged addresses', { from: message.from });
      return;
    }
    ctx.seen.remember(message.id);
    ctx.emit('message', {
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
    this.#ctx.emit('delivery', { id, delivery });
  }
}

function bodyOf(payload: ChatMessage): string {
  const { message } = payload;
  return typeof message === 'string' ? message : `${message.name}: ${message.url}`;
}
