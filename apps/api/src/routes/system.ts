import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@frontdesk/protocol';
import { allUp, checkDependencies } from '../monitoring/health.ts';
import { authenticateStaff, bearerToken } from '../plugins/auth.ts';
import { JANUS_WEBSOCKET_PATH, XMPP_WEBSOCKET_PATH } from '../plugins/gateway.ts';
import { fromTable } from './from-table.ts';

/** Health and client configuration: what operators and the apps need before anything else. */
export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app;

  app.route({
    ...fromTable(routes.health, [], {}),
    handler: async (request, reply) => {
      // SECURITY: the detail (latencies, error texts with internal addresses) is for staff only;
      // a token that is sent must be a valid staff one (401/403), so a console never mistakes
      // an expired session for a healthy summary.
      const detailed = bearerToken(request) !== undefined;
      if (detailed) await authenticateStaff(request);
      const dependencies = await checkDependencies(app.db, config);
      const up = allUp(dependencies);
      const status = up ? 'up' : 'down';
      return reply.code(up ? 200 : 503).send(detailed ? { status, dependencies } : { status });
    },
  });

  app.route({
    ...fromTable(routes.config, [], {}),
    handler: async (request) => {
      // The page reaches both WebSockets through our own origin (see plugins/gateway.ts).
      const wsOrigin = `${request.protocol === 'https' ? 'wss' : 'ws'}://${request.host}`;
      return {
        data: {
          apiBase: '/api',
          xmppWebsocketUrl: `${wsOrigin}${XMPP_WEBSOCKET_PATH}`,
          xmppDomain: config.xmpp.domain,
          janusWebsocketUrl: `${wsOrigin}${JANUS_WEBSOCKET_PATH}`,
          errorReporting: config.monitoring.dsn
            ? { dsn: config.monitoring.dsn, tunnel: '/api/monitoring' }
            : null,
        },
      };
    },
  });
};
