import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { z } from 'zod';
import { checkDependencies } from '../monitoring/health.ts';
import { sendError } from '../plugins/errors.ts';
import { metricsGuard } from './metrics-access.ts';
import { countOpenCalls } from './open-calls.ts';
import { countTurnAllocations } from './turn-allocations.ts';

/** Requests that matched no route (404s, the apps' client-side routes) share one label. */
const UNMATCHED_ROUTE = 'unmatched';

/**
 * The API's metrics in one registry per app (tests build several in one process): request
 * latency, and gauges sampled when `/metrics` is read rather than kept up to date on every change.
 */
export function registerMetrics(app: FastifyInstance): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requestDuration = new Histogram({
    name: 'frontdesk_http_request_duration_seconds',
    help: 'HTTP request latency, by route pattern and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    registers,
  });
  // On the root instance, before the routes: its hooks then reach every route.
  app.addHook('onResponse', async (request, reply) => {
    requestDuration.observe(
      {
        method: request.method,
        // The pattern (`/api/calls/:callId`), never the URL: one series per route, not per call.
        route: request.routeOptions.url ?? UNMATCHED_ROUTE,
        status_class: `${Math.floor(reply.statusCode / 100)}xx`,
      },
      reply.elapsedTime / 1000,
    );
  });

  const calls = new Gauge({
    name: 'frontdesk_calls_live',
    help: 'Calls answered by an agent and not ended',
    registers,
  });
  const waiting = new Gauge({
    name: 'frontdesk_guests_waiting',
    help: 'Guests waiting in a queue for an agent',
    registers,
  });
  const websockets = new Gauge({
    name: 'frontdesk_websocket_connections',
    help: 'Browser WebSockets open through the gateway, by gateway',
    labelNames: ['gateway'] as const,
    registers,
  });
  const dependencyUp = new Gauge({
    name: 'frontdesk_dependency_up',
    help: 'Whether a dependency answered the health probe (1) or not (0)',
    labelNames: ['dependency'] as const,
    registers,
  });
  const { turnCli } = app.config;
  // Only where coturn's CLI is known: an unset gauge would read 0, as if no call were relayed.
  const turnAllocations = new Gauge({
    name: 'frontdesk_turn_allocations',
    help: 'TURN relay allocations coturn holds, NaN when its CLI does not answer',
    registers: turnCli ? registers : [],
  });
  const mergesPending = new Gauge({
    name: 'frontdesk_recording_merges_pending',
    help: 'Call recordings waiting to be merged or being merged (the job queue, every API process)',
    registers,
  });

  async function sample(): Promise<void> {
    const [dependencies, open, relays, merges] = await Promise.all([
      checkDependencies(app.db, app.config),
      countOpenCalls(app.db).catch((error: unknown) => {
        app.log.warn({ err: error }, 'metrics: open calls could not be counted');
        return null;
      }),
      turnCli &&
        countTurnAllocations(turnCli).catch((error: unknown) => {
          app.log.warn({ err: error }, 'metrics: TURN allocations could not be counted');
          return null;
        }),
      app.recordingJobs.pendingCount().catch((error: unknown) => {
        app.log.warn({ err: error }, 'metrics: pending recording merges could not be counted');
        return null;
      }),
    ]);
    for (const [name, { status }] of Object.entries(dependencies)) {
      dependencyUp.set({ dependency: name }, status === 'up' ? 1 : 0);
    }
    if (turnCli) {
      // Not one of /api/health's dependencies (most calls connect without a relay), but those
      // that need one fail without it: the same series tells it is down.
      dependencyUp.set({ dependency: 'turn' }, relays === null ? 0 : 1);
      turnAllocations.set(relays ?? Number.NaN);
    }
    // NaN (unknown) rather than 0 or the last value: an alert on a quiet queue must not fire,
    // nor stay silent, because the database did not answer.
    calls.set(open?.live ?? Number.NaN);
    waiting.set(open?.waiting ?? Number.NaN);
    websockets.set({ gateway: 'xmpp' }, app.gatewayConnections.count('xmpp'));
    websockets.set({ gateway: 'janus' }, app.gatewayConnections.count('janus'));
    mergesPending.set(merges ?? Number.NaN);
  }

  const refusal = metricsGuard(app.config);
  app.get(
    '/metrics',
    {
      schema: {
        hide: true,
        headers: z.looseObject({ authorization: z.string().max(4096).optional() }),
      },
    },
    async (request, reply) => {
      const refused = refusal(request);
      if (refused) {
        if (refused.status === 401) reply.header('www-authenticate', 'Bearer realm="metrics"');
        return sendError(reply, refused.status, refused.code, refused.message);
      }
      await sample();
      return reply
        .header('cache-control', 'no-store')
        .type(registry.contentType)
        .send(await registry.metrics());
    },
  );
  app.addHook('onClose', async () => registry.clear());
}
