import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import httpProxy from '@fastify/http-proxy';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brandGuestPage } from '../companies/branded-page.ts';
import type { Config } from '../config.ts';
import { sendError } from './errors.ts';
import { registerJanusGate, upgradeRefusal } from './janus-gate.ts';
import { guestPageCompany, setGuestPageHeaders } from './security-headers.ts';

/** What the browser sees as the WebSocket paths of the XMPP server and Janus (one origin). */
export const XMPP_WEBSOCKET_PATH = '/xmpp-websocket';
export const JANUS_WEBSOCKET_PATH = '/janus-ws';

function websocketGuard(subprotocol: string, allowedOrigins: readonly string[]) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const refusal = upgradeRefusal(request.headers, subprotocol, allowedOrigins);
    if (refusal) return sendError(reply, refusal.status, refusal.code, refusal.message);
    return undefined;
  };
}

/**
 * The XMPP and Janus WebSockets on the one origin browsers use. XMPP is proxied as it is;
 * Janus goes through the gate, which checks every message (decision 0008).
 */
export async function registerWebsocketProxies(app: FastifyInstance, config: Config) {
  const url = new URL(config.xmpp.websocketUpstream);
  const subprotocol = 'xmpp';
  await app.register(httpProxy, {
    prefix: XMPP_WEBSOCKET_PATH,
    upstream: `http://${url.host}`,
    rewritePrefix: url.pathname,
    websocket: true,
    wsUpstream: config.xmpp.websocketUpstream,
    httpMethods: ['GET'],
    preHandler: websocketGuard(subprotocol, config.allowedOrigins),
    wsServerOptions: {
      handleProtocols: (protocols: Set<string>) =>
        protocols.has(subprotocol) ? subprotocol : false,
    },
    // Counted once ejabberd's side is open too: a relay to nowhere is no connection.
    wsHooks: { onConnect: (_context, browser) => app.gatewayConnections.track('xmpp', browser) },
  });
  registerJanusGate(app, config, JANUS_WEBSOCKET_PATH);
}

/**
 * The guest page `/`, with the look of the company its `?company=` names (by the app's own
 * rule, `pageCompanyId`). A company that cannot be loaded gets the
 * page as built, and the app then explains what went wrong.
 */
function registerGuestPage(app: FastifyInstance, root: string) {
  app.get('/', async (request, reply) => {
    const html = await readFile(join(root, 'index.html'), 'utf8');
    const company = await guestPageCompany(app, request);
    setGuestPageHeaders(request, reply, company);
    // The embed's locale (`?lang=`, a BCP 47 tag as the app reads it): the page's language and direction.
    const { lang } = request.query as Record<string, unknown>;
    const requested =
      typeof lang === 'string' && /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(lang) ? lang : undefined;
    return reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(company ? brandGuestPage(html, company, requested) : html);
  });
}

/** Serves the built guest app at `/` and the console at `/console/`, each with its SPA fallback. */
export async function registerApps(app: FastifyInstance, config: Config) {
  const apps = [
    { root: config.consoleAppDir, prefix: '/console/' },
    { root: config.guestAppDir, prefix: '/' },
  ];
  for (const [index, { root, prefix }] of apps.entries()) {
    if (!existsSync(root)) {
      app.log.warn({ root }, 'app build missing; run `npm run build`');
      continue;
    }
    const guest = prefix === '/';
    if (guest) registerGuestPage(app, root);
    await app.register(fastifyStatic, {
      root,
      prefix,
      // Only one registration may decorate the reply with sendFile.
      decorateReply: index === 0,
      // SECURITY: source maps are built (`hidden`, for error reports) but never served: they
      // would hand anyone the apps' whole source. The compressed copies are reached only
      // through the file they are of (below), never by their own names.
      allowedPath: (pathName) => !/\.(?:map|br|gz)$/.test(pathName),
      wildcard: false,
      // The guest's `/` is answered above, branded.
      index: guest ? false : 'index.html',
      // The build wrote `.br` and `.gz` beside each text file (infra/src/build-apps.ts): sent
      // as they are to browsers that accept them, with `Vary: accept-encoding`.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, sentPath) => {
        // The file sent may be a compressed copy: its headers are those of the file it is of.
        const path = sentPath.replace(/\.(?:br|gz)$/, '');
        // Vite names built assets by content hash; index.html must always be revalidated.
        res.header(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
        // The embed loader is a module script on companies' own sites: a cross-origin load.
        if (path.endsWith('/embed.js')) res.header('access-control-allow-origin', '*');
      },
    });
  }
}
