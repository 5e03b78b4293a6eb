import type { FastifyInstance } from 'fastify';
import { registerMetrics } from './metrics.ts';
import { probeRoutes } from './probes.ts';

/**
 * `/metrics`, `/livez` and `/readyz` (docs/operations.md, "Metrics and probes"). Called on the
 * root instance before any route is registered, so the latency hook sees every route.
 */
export async function registerObservability(app: FastifyInstance): Promise<void> {
  registerMetrics(app);
  await app.register(probeRoutes);
}
