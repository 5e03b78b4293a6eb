import {
  formatPresenceStatus,
  parsePresenceStatus,
  presenceStateSchema,
  type PresenceStatus,
} from '@frontdesk/protocol';
import { JID } from 'stanza';
import type { SessionContext } from './context.ts';

/** One PEP node per presence state on the user's own JID (spec §4), so nobody can squat it. */
const STATE_NODE_PREFIX = 'urn:frontdesk:presence:';
const NS_JSON = 'urn:xmpp:json:0';

/**
 * This user's presence state nodes (spec §4): every presence it publishes in a room is also
 * recorded on them, and what any of its sessions publishes comes back as `ownPresence`.
 */
export class StateNodes {
  readonly #ctx: SessionContext;

  constructor(ctx: SessionContext) {
    this.#ctx = ctx;
    ctx.client.on('pubsub:published', (event) => {
      if (JID.toBare(event.from) !== ctx.jid) return;
      for (const item of event.pubsub.items.published) {
        // PEP delivers an item once per subscription and once for +notify: keep the first.
        if (!item.id || ctx.seen.has(item.id)) continue;
        ctx.seen.remember(item.id);
        const content = item.content as { json?: { status?: string } } | undefined;
        const status = parsePresenceStatus(content?.json?.status);
        if (status) ctx.emit('ownPresence', status);
      }
    });
  }

  /**
   * spec §4: one node per presence state, created ("node already exists" tolerated) and
   * subscribed. They are PEP nodes on the user's own JID (docs/operations.md: on a shared
   * pubsub service another user could create a name first and own it).
   */
  async ensure(): Promise<void> {
    const { client, jid, log } = this.#ctx;
    await Promise.all(
      presenceStateSchema.options.map(async (state) => {
        const node = `${STATE_NODE_PREFIX}${state}`;
        try {
          await client.createNode(jid, node);
        } catch (error) {
          if ((error as { error?: { condition?: string } }).error?.condition !== 'conflict') {
            log(`creating node ${node} failed`, error);
            return;
          }
        }
        try {
          // The full JID: a bare-JID subscription gets nothing until presence is processed.
          await client.subscribeToNode(jid, { node, jid: client.jid });
        } catch (error) {
          log(`subscribing to node ${node} failed`, error);
        }
      }),
    );
  }

  publish(status: PresenceStatus): void {
    const { client, jid, log } = this.#ctx;
    const node = `${STATE_NODE_PREFIX}${status.state}`;
    const item = { itemType: NS_JSON, json: { status: formatPresenceStatus(status) } };
    client
      .publish(jid, node, item, client.nextId())
      .catch((error: unknown) => log(`publishing to ${node} failed`, error));
  }
}
