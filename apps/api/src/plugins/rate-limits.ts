import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { HttpError } from './errors.ts';

/**
 * Per-address limits of the calls that cost the most or invite guessing. Counters live in each
 * process: several replicas behind a load balancer each count on their own (and need
 * `trustProxy` so the address is the visitor's).
 */
export const RATE_LIMITS = {
  /** Password guessing. */
  staffLogin: { max: 10, timeWindow: '1 minute' },
  guestAuth: { max: 30, timeWindow: '1 minute' },
  upload: { max: 30, timeWindow: '1 minute' },
  /** The error-reporting SDK batches; a page in trouble still sends only a few a minute. */
  monitoring: { max: 60, timeWindow: '1 minute' },
  geofence: { max: 60, timeWindow: '1 minute' },
} as const;

/** Enables `config.rateLimit` on routes; nothing is limited unless a route asks. */
export async function registerRateLimits(app: FastifyInstance) {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, 'rate_limited', `Too many requests: try again in ${context.after}.`),
  });
}
