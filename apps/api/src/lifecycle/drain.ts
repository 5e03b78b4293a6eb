import { setTimeout as sleep } from 'node:timers/promises';
import { UnavailableError } from '../domain-errors.ts';
import type { Gateway, GatewayConnections } from '../observability/gateway-connections.ts';

const GATEWAYS: readonly Gateway[] = ['xmpp', 'janus'];

/**
 * A stopping API's first phase (issue 15): it takes no new call and tells the load balancer so
 * (`/readyz` answers `draining`, 503), while the WebSockets it relays go on for a grace period.
 */
export class Drain {
  #began: number | null = null;

  get draining(): boolean {
    return this.#began !== null;
  }

  begin(): void {
    this.#began ??= Date.now();
  }

  /** Refuses to start a call once draining began: the guest tries again, on another server. */
  refuseNewCalls(): void {
    if (this.draining) {
      throw new UnavailableError(
        'draining',
        'This server is restarting and takes no new calls: try again in a minute.',
      );
    }
  }
}

/**
 * Waits until this process relays no WebSocket — its guests' and agents' chat and media through
 * the gateways — or the grace period is over, whichever comes first, and says which (decision
 * 0038). A replica's own connections, not the database's calls: the calls of the other replicas
 * go on whatever this one does, and those it relays reconnect to another after it stops, as after
 * any restart.
 */
export async function waitForOwnConnections(
  connections: GatewayConnections,
  graceMs: number,
  { pollMs = 1000, onWaiting }: { pollMs?: number; onWaiting?: (open: number) => void } = {},
): Promise<'closed' | 'graceOver'> {
  const deadline = Date.now() + graceMs;
  for (;;) {
    const open = GATEWAYS.reduce((sum, gateway) => sum + connections.count(gateway), 0);
    if (open === 0) return 'closed';
    if (Date.now() >= deadline) return 'graceOver';
    onWaiting?.(open);
    await sleep(Math.min(pollMs, Math.max(0, deadline - Date.now())));
  }
}
