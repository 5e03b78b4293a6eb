import { WebSocket } from 'ws';

/** The WebSocket gateways browsers reach the chat and media servers through (plugins/gateway.ts). */
export type Gateway = 'xmpp' | 'janus';

/**
 * The browser WebSockets open through each gateway with their upstream connection up, read by
 * `/metrics`. Sets of sockets rather than counters: each socket leaves on its own `close`, so a
 * proxy hook that fires twice, or a disconnect hook without its connect (an upstream that never
 * opened), cannot skew the count.
 */
export class GatewayConnections {
  private readonly open: Record<Gateway, Set<WebSocket>> = {
    xmpp: new Set(),
    janus: new Set(),
  };

  /** Counts `browser` until it closes; one already closing would never leave, so is not counted. */
  track(gateway: Gateway, browser: WebSocket): void {
    if (browser.readyState !== WebSocket.OPEN) return;
    const sockets = this.open[gateway];
    sockets.add(browser);
    browser.once('close', () => sockets.delete(browser));
  }

  count(gateway: Gateway): number {
    return this.open[gateway].size;
  }
}
