import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { screenBrowserMessage } from '@frontdesk/media/server';
import { mediaServerNameSchema, type ApiError } from '@frontdesk/protocol';
import { LOCAL_MEDIA_SERVER, type Config } from '../config.ts';
import type { GatewayConnections } from '../observability/gateway-connections.ts';

const SUBPROTOCOL = 'janus-protocol';

/** What the origin and subprotocol checks of a WebSocket upgrade decide. */
export type UpgradeRefusal = { status: number; code: string; message: string };

/**
 * The browser-facing checks of a WebSocket upgrade, shared with the XMPP proxy: a browser page
 * of another origin may not connect, and the subprotocol must be the server's.
 * SECURITY: ejabberd and Janus accept any Origin; this check is the boundary.
 */
export function upgradeRefusal(
  headers: IncomingMessage['headers'],
  subprotocol: string,
  allowedOrigins: readonly string[],
): UpgradeRefusal | null {
  const { origin, host } = headers;
  // Non-browser clients send no Origin; cross-site WebSocket hijacking needs a browser, which always sends one.
  const sameOrigin =
    origin === undefined ||
    allowedOrigins.includes(origin) ||
    (host !== undefined && (origin === `http://${host}` || origin === `https://${host}`));
  if (!sameOrigin) {
    return {
      status: 403,
      code: 'origin_not_allowed',
      message: 'This origin may not open a connection.',
    };
  }
  const offered = String(headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim());
  if (!offered.includes(subprotocol)) {
    return {
      status: 400,
      code: 'subprotocol_required',
      message: `Connect with the WebSocket subprotocol "${subprotocol}".`,
    };
  }
  return null;
}

function refuseUpgrade(socket: Duplex, { status, code, message }: UpgradeRefusal): void {
  const body = JSON.stringify({ error: { code, message } } satisfies ApiError);
  socket.end(
    `HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : 'Bad Request'}\r\n` +
      'content-type: application/json; charset=utf-8\r\n' +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      'connection: close\r\n\r\n' +
      body,
  );
}

/** One browser's connection, joined to a connection of its own to Janus. */
function bridge(
  browser: WebSocket,
  upstreamUrl: string,
  log: FastifyBaseLogger,
  connections: GatewayConnections,
): void {
  const janus = new WebSocket(upstreamUrl, SUBPROTOCOL);
  const pending: string[] = [];
  const toJanus = (text: string) => {
    if (janus.readyState === WebSocket.OPEN) janus.send(text);
    else pending.push(text);
  };
  janus.on('open', () => {
    // As the XMPP proxy counts its own: once both sides are open.
    connections.track('janus', browser);
    for (const text of pending.splice(0)) janus.send(text);
  });
  browser.on('message', (data: RawData, binary: boolean) => {
    // The Janus API is JSON text; a binary frame is not one of its messages.
    const verdict = screenBrowserMessage(binary ? '' : String(data));
    if ('forward' in verdict) {
      toJanus(verdict.forward);
      return;
    }
    // Worth a look: the media layer never sends what the gate refuses, so someone tried.
    log.warn({ refused: verdict.refuse }, 'Janus request refused by the gate');
    browser.send(verdict.refuse);
  });
  janus.on('message', (data: RawData, binary: boolean) => {
    if (browser.readyState === WebSocket.OPEN) browser.send(data, { binary });
  });
  const closeBoth = () => {
    // Janus ends the browser's sessions when their WebSocket closes, and the reverse.
    if (browser.readyState === WebSocket.OPEN) browser.close(1000);
    if (janus.readyState === WebSocket.OPEN) janus.close(1000);
    else if (janus.readyState === WebSocket.CONNECTING) janus.terminate();
  };
  browser.on('close', closeBoth);
  janus.on('close', closeBoth);
  browser.on('error', closeBoth);
  janus.on('error', closeBoth);
}

/**
 * The Janus `?server=<name>` names (decision 0039): one of the registry's, by the name its calls'
 * `RoomAccess` gives — also one another API process placed calls on but this one's JANUS_SERVERS
 * lacks (a rolling change); none is `local`, the one server of an API without JANUS_SERVERS.
 */
async function janusOf(query: URLSearchParams, app: FastifyInstance) {
  const name = mediaServerNameSchema.safeParse(query.get('server') ?? LOCAL_MEDIA_SERVER);
  return name.success ? app.mediaServers.named(name.data) : undefined;
}

const UNKNOWN_SERVER: UpgradeRefusal = {
  status: 400,
  code: 'unknown_media_server',
  message: 'server: no media server has this name; connect with the one the call’s room names.',
};

/**
 * `/janus-ws`: the browsers' one way to Janus (decision 0008). Unlike the XMPP proxy it reads
 * every message: each must pass `screenBrowserMessage` (the videoroom requests the media layer
 * sends, nothing administrative, no recording name, no publisher id of the browser's own) or it
 * is answered with an error and never reaches Janus. Janus itself listens on loopback only (or on
 * the pool's private network). `?server=<name>` picks the pool's server; an unknown name is
 * refused (400) before the upgrade.
 */
export function registerJanusGate(app: FastifyInstance, config: Config, path: string): void {
  const server = new WebSocketServer({
    noServer: true,
    maxPayload: 256 * 1024,
    handleProtocols: (protocols) => (protocols.has(SUBPROTOCOL) ? SUBPROTOCOL : false),
  });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://gate');
    // Other paths belong to the XMPP proxy's own upgrade listener.
    if (url.pathname !== path) return;
    const refusal = upgradeRefusal(request.headers, SUBPROTOCOL, config.allowedOrigins);
    if (refusal) {
      refuseUpgrade(socket, refusal);
      return;
    }
    janusOf(url.searchParams, app).then(
      (upstream) => {
        if (!upstream) {
          refuseUpgrade(socket, UNKNOWN_SERVER);
          return;
        }
        server.handleUpgrade(request, socket, head, (browser) =>
          bridge(browser, upstream.websocketUrl, app.log, app.gatewayConnections),
        );
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'the media server registry could not be read');
        socket.destroy();
      },
    );
  };
  app.server.on('upgrade', onUpgrade);
  // Before the server closes: it waits for every open connection, WebSockets included.
  app.addHook('preClose', async () => {
    app.server.off('upgrade', onUpgrade);
    for (const client of server.clients) client.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
}
