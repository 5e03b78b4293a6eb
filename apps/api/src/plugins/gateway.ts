import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import httpProxy from '@fastify/http-proxy';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pageCompanyId } from '@frontdesk/protocol';
import { brandGuestPage } from '../companies/branded-page.ts';
import type { Config } from '../config.ts';
import { sendError } from './errors.ts';

/** What the browser sees as the WebSocket paths of the XMPP server and Janus (one origin). */
export const XMPP_WEBSOCKET_PATH = '/xmpp-websocket';
export const JANUS_WEBSOCKET_PATH = '/janus-ws';

function originAllowed(request: FastifyRequest, allowedOrigins: readonly string[]): boolean {
  const origin = request.headers.origin;
  // Non-browser clients send no Origin; cross-site WebSocket hijacking needs a browser, which always sends one.
  if (origin === undefined) return true;
  const host = request.headers.host;
  return (
    allowedOrigins.includes(origin) ||
    (host !== undefined && (origin === `http://${host}` || origin === `https://${host}`))
  );
}

function websocketGuard(subprotocol: string, allowedOrigins: readonly string[]) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    // SECURITY: ejabberd and Janus accept any Origin; this check is the only boundary.
    if (!originAllowed(request, allowedOrigins)) {
      return sendError(reply, 403, 'origin_not_allowed', 'This origin may not open a connection.');
    }
    const offered = String(request.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim());
    if (!offered.includes(subprotocol)) {
      return sendError(
        reply,
        400,
        'subprotocol_required',
        `Connect with the WebSocket subprotocol "${subprotocol}".`,
      );
    }
    return undefined;
  };
}

/** Proxies the XMPP and Janus WebSockets to the loopback servers, so browsers need one origin. */
export async function registerWebsocketProxies(app: FastifyInstance, config: Config) {
  const proxies = [
    { prefix: XMPP_WEBSOCKET_PATH, upstream: config.xmpp.websocketUpstream, subprotocol: 'xmpp' },
    {
      prefix: JANUS_WEBSOCKET_PATH,
      upstream: config.janus.websocketUpstream,
      subprotocol: 'janus-protocol',
    },
  ];
  for (const { prefix, upstream, subprotocol } of proxies) {
    const url = new URL(upstream);
    await app.register(httpProxy, {
      prefix,
      upstream: `http://${url.host}`,
      rewritePrefix: url.pathname,
      websocket: true,
      wsUpstream: upstream,
      httpMethods: ['GET'],
      preHandler: websocketGuard(subprotocol, config.allowedOrigins),
      wsServerOptions: {
        handleProtocols: (protocols: Set<string>) =>
          protocols.has(subprotocol) ? subprotocol : false,
      },
    });
  }
}

/** Serves the built guest app at `/` and the console at `/console/`, each with its SPA fallback. */
/**
 * The guest page `/`, with the look of the company its `?company=` names (by the app's own
 * rule, `pageCompanyId`). A company that cannot be loaded gets the
 * page as built, and the app then explains what went wrong.
 */
function registerGuestPage(app: FastifyInstance, root: string) {
  app.get('/', async (request, reply) => {
    const html = await readFile(join(root, 'index.html'), 'utf8');
    const { company: named } = request.query as Record<string, unknown>;
    const company = await app.companyDetails
      .get(pageCompanyId(named), new Date())
      .catch(() => null);
    return reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(company ? brandGuestPage(html, company) : html);
  });
}

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
      wildcard: false,
      // The guest's `/` is answered above, branded.
      index: guest ? false : 'index.html',
      cacheControl: false,
      setHeaders: (res, path) => {
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
