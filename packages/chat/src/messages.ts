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
import { RecentIds } from './context.ts';
import type { ChatMessageRecord, DeliveryState, TypingState } from './types.ts';

const DELIVERY_RANK: Record<DeliveryState, number> = {
  sending: 0,
  sent: 1,
  delivered: 2,
  read: 3,
  failed: 2,
};

/** How many of its sent messages the session follows until they are read or failed. */
const FOLLOWED_KEPT = 500;

/** A sent message whose state can still change: to whom, and how far it got. */
type Followed = { to: string; delivery: DeliveryState };

/**
 * When a message was sent: its XEP-0203 delay stamp (the sender's server's, or the sender's
 * word), never later than `now`; else `now`.
 */
export function sentAtOf(message: Pick<Message, 'delay'>, now: Date): string {
  const stamped = message.delay?.timestamp;
  if (!stamped || Number.isNaN(stamped.getTime()) || stamped > now) return now.toISOString();
  return stamped.toISOString();
}

/**
 * One-to-one chat messages (spec §7): sending texts and files, receiving them and this user's
 * other sessions' (carbons), their delivery and read states (XEP-0184, XEP-0333), the other
 * side's typing (XEP-0085), and the server's own notices.
 */
export class Messages {
  readonly #ctx: SessionContext;
  readonly #sender: ChatSender;
  /** Sent messages by stanza id, oldest first. */
  readonly #followed = new Map<string, Followed>();
  /** Received messages already marked displayed. */
  readonly #displayed = new RecentIds();

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
      if (message.receipt.id) {
        this.#updateDelivery(message.receipt.id, 'delivered', this.#peerOf(message.from));
      }
    });
    client.on('marker:received', (message) => {
      if (message.marker?.id) {
        this.#updateDelivery(message.marker.id, 'delivered', this.#peerOf(message.from));
      }
    });
    client.on('marker:displayed', (message) => {
      if (message.marker?.id) this.#displayedUpTo(message.marker.id, this.#peerOf(message.from));
    });
    client.on('chat:state', (message) => {
      if (message.type !== 'chat') return;
      const from = this.#peerOf(message.from);
      if (!from || from === ctx.username) return;
      const state: TypingState =
        message.chatState === 'composing' || message.chatState === 'paused'
          ? message.chatState
          : 'active';
      ctx.emit('chatState', { from, state });
    });
    client.on('stanza:acked', (acked) => {
      if (acked.kind === 'message' && acked.stanza.id) {
        this.#updateDelivery(acked.stanza.id, 'sent', undefined);
      }
    });
    client.on('stanza:failed', (failed) => {
      if (failed.kind === 'message' && failed.stanza.id) {
        this.#updateDelivery(failed.stanza.id, 'failed', undefined);
      }
    });
    client.on('message:error', (message) => {
      if (message.id) this.#updateDelivery(message.id, 'failed', this.#peerOf(message.from));
    });
  }

  /**
   * Tells `to` this user is typing, has paused or is done (XEP-0085). Dropped while offline:
   * a stale "typing" is worse than none.
   */
  sendChatState(to: string, state: TypingState): void {
    if (this.#ctx.status() !== 'connected') return;
    this.#ctx.client.sendMessage({
      to: `${to}@${this.#ctx.domain}`,
      type: 'chat',
      chatState: state,
    });
  }

  /**
   * Tells the sender of a received message that it is on screen (XEP-0333 `displayed`, which
   * also covers every earlier one). Each message is marked once; dropped while offline.
   */
  markDisplayed(record: ChatMessageRecord): void {
    if (record.direction !== 'in' || this.#displayed.has(record.id)) return;
    if (this.#ctx.status() !== 'connected') return;
    this.#displayed.remember(record.id);
    this.#ctx.client.sendMessage({
      to: `${record.payload.from}@${this.#ctx.domain}`,
      type: 'chat',
      marker: { type: 'displayed', id: record.id },
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
    this.#follow(id, { to, delivery: 'sending' });
    this.#ctx.seen.remember(id);
    client.sendMessage({
      id,
      to: `${to}@${this.#ctx.domain}`,
      type: 'chat',
      // A body makes it a chat message for carbons (XEP-0280) and readable by any client.
      body: bodyOf(payload),
      json: payload,
      receipt: { type: 'request' },
      marker: { type: 'markable' },
      chatState: 'active',
    });
    this.#ctx.emit('message', record);
    return record;
  }

  #onMessage(message: Message, direction: 'in' | 'out'): void {
    const ctx = this.#ctx;
    // A call's signal is never a chat message, whatever else its sender put in it (signals.ts).
    if (message.callSignal) return;
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
      at: sentAtOf(message, new Date()),
      delivery: direction === 'in' ? 'delivered' : 'sent',
      payload,
    });
  }

  /** The jabber username of a stanza's sender on our domain; `undefined` for anyone else. */
  #peerOf(from: string | undefined): string | undefined {
    const jid = JID.parse(from ?? '');
    return jid.domain === this.#ctx.domain && jid.local ? jid.local : undefined;
  }

  #follow(id: string, followed: Followed): void {
    this.#followed.set(id, followed);
    if (this.#followed.size > FOLLOWED_KEPT) {
      this.#followed.delete(this.#followed.keys().next().value as string);
    }
  }

  /**
   * A sent message got further. SECURITY: a receipt or marker counts only from the user the
   * message went to (`from`; `undefined` for the server's own acks and failures).
   */
  #updateDelivery(id: string, delivery: DeliveryState, from: string | undefined): void {
    const current = this.#followed.get(id);
    if (current === undefined || DELIVERY_RANK[delivery] <= DELIVERY_RANK[current.delivery]) return;
    if (from !== undefined && from !== current.to) return;
    if (delivery === 'read' || delivery === 'failed') this.#followed.delete(id);
    else current.delivery = delivery;
    this.#ctx.emit('delivery', { id, delivery });
  }

  /** XEP-0333: `displayed` for one message means every earlier one to that user is read too. */
  #displayedUpTo(id: string, from: string | undefined): void {
    if (!from || this.#followed.get(id)?.to !== from) return;
    const earlier: string[] = [];
    for (const [followedId, followed] of this.#followed) {
      if (followed.to === from) earlier.push(followedId);
      if (followedId === id) break;
    }
    for (const followedId of earlier) this.#updateDelivery(followedId, 'read', from);
  }
}

function bodyOf(payload: ChatMessage): string {
  const { message } = payload;
  return typeof message === 'string' ? message : `${message.name}: ${message.url}`;
}
