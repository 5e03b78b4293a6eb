import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  livenessSchema,
  readinessSchema,
  type OptionalDependency,
  type Readiness,
} from '@frontdesk/protocol';
import { checkDependencies, READINESS_OPTIONAL_TIMEOUT_MS } from '../monitoring/health.ts';

const OPTIONAL: readonly OptionalDependency[] = ['xmpp', 'janus'];

/**
 * The orchestrator's probes, beside `/api/health` (which stays the operators' all-up check).
 * While the app closes, Fastify answers both 503 itself (`return503OnClosing`), so a draining
 * instance leaves the load balancer before its connections are cut.
 */
export const probeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/livez', { schema: { hide: true, response: { 200: livenessSchema } } }, async () => ({
    status: 'alive' as const,
  }));

  app.get(
    '/readyz',
    { schema: { hide: true, response: { 200: readinessSchema, 503: readinessSchema } } },
    async (_request, reply) => {
      const dependencies = await checkDependencies(
        app.db,
        app.config,
        READINESS_OPTIONAL_TIMEOUT_MS,
      );
      const ready = dependencies.database.status === 'up' && !app.drain.draining;
      const body: Readiness = {
        status: app.drain.draining ? 'draining' : ready ? 'ready' : 'unready',
        degraded: OPTIONAL.filter((name) => dependencies[name].status === 'down'),
        dependencies: {
          database: dependencies.database.status,
          xmpp: dependencies.xmpp.status,
          janus: dependencies.janus.status,
        },
      };
      return reply.code(ready ? 200 : 503).send(body);
    },
  );
};
