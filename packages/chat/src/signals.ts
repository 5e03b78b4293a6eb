import {
  CALL_SIGNAL_NAMESPACE,
  Emitter,
  callSignalSchema,
  type CallSignal,
  type SignalChannel,
} from '@frontdesk/protocol';
import { JID, JXT, type Agent } from 'stanza';
import type { Message } from 'stanza/protocol';
import type { SessionContext } from './context.ts';
import { ChatError } from './errors.ts';

declare module 'stanza/protocol' {
  interface Message {
    /** A p2p call's signal as the sender wrote it: JSON text, not yet parsed nor trusted. */
    callSignal?: { json?: string };
  }
}

/** Teaches a StanzaJS client the `<signal/>` element, as `message.callSignal`. */
export function defineCallSignal(client: Agent): void {
  client.stanzas.define({
    element: 'signal',
    namespace: CALL_SIGNAL_NAMESPACE,
    path: 'message.callSignal',
    fields: { json: JXT.text() },
  });
}

/**
 * A p2p call's signals (issue 23, decision 0045) between this user and another, each in a
 * bodiless headline to the other's bare JID. A headline reaches every online session of the
 * user and nothing else: ejabberd stores none offline (RFC 6121 §8.5.2.1.1), archives none (MAM)
 * and carbon-copies none (XEP-0280 copies chat messages only), so a signal is never replayed to a
 * later session nor shown to the sender's other tabs. Being bodiless, it passes
 * mod_block_strangers both ways (a guest has no roster entry for an agent it signals).
 */
export class Signals implements SignalChannel {
  readonly #ctx: SessionContext;
  readonly #listeners: Emitter<{ signal: { from: string; signal: CallSignal } }>;

  constructor(ctx: SessionContext) {
    this.#ctx = ctx;
    this.#listeners = new Emitter((_, error) => ctx.log('a signal listener threw', error));
    defineCallSignal(ctx.client);
    ctx.client.on('message', (message) => {
      if (message.callSignal) this.#onSignal(message);
    });
  }

  sendSignal(to: string, signal: CallSignal): Promise<void> {
    const parsed = callSignalSchema.safeParse(signal);
    if (!parsed.success) {
      return Promise.reject(new ChatError('invalid-signal', parsed.error.message));
    }
    if (this.#ctx.status() !== 'connected') return Promise.reject(new ChatError('not-connected'));
    this.#ctx.client.sendMessage({
      to: `${to}@${this.#ctx.domain}`,
      type: 'headline',
      callSignal: { json: JSON.stringify(parsed.data) },
    });
    return Promise.resolve();
  }

  onSignal(listener: (from: string, signal: CallSignal) => void): () => void {
    return this.#listeners.on('signal', ({ from, signal }) => listener(from, signal));
  }

  #onSignal(message: Message): void {
    const { log, domain } = this.#ctx;
    // Only a headline is a signal: an error bounce carries our own signal back, as if its
    // recipient had sent it.
    if (message.type !== 'headline') {
      log('dropped a call signal that is not a headline', { from: message.from });
      return;
    }
    // SECURITY: the sender is the address the server stamped, never a field of the signal.
    const sender = JID.parse(message.from ?? '');
    if (sender.domain !== domain || !sender.local) {
      log('dropped a call signal from outside our users', { from: message.from });
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(message.callSignal?.json ?? '');
    } catch (error) {
      log('dropped a call signal that is not JSON', { from: message.from, error });
      return;
    }
    const parsed = callSignalSchema.safeParse(json);
    if (!parsed.success) {
      log('dropped a call signal that is not ours', {
        from: message.from,
        issues: parsed.error.issues,
      });
      return;
    }
    this.#listeners.emit('signal', { from: sender.local, signal: parsed.data });
  }
}
