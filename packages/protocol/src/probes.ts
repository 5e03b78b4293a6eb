import { z } from 'zod';

/** `GET /livez`: the process answers; no dependency is asked, so a restart never waits on one. */
export const livenessSchema = z.object({ status: z.literal('alive') });
export type Liveness = z.infer<typeof livenessSchema>;

/** The dependencies an instance can serve without: calls and chat stop, sign-in and queues go on. */
export const optionalDependencySchema = z.enum(['xmpp', 'janus']);
export type OptionalDependency = z.infer<typeof optionalDependencySchema>;

const upOrDown = z.enum(['up', 'down']);

/**
 * `GET /readyz`: whether a load balancer should send this instance traffic. Only the database
 * makes it `unready` (503). An optional dependency that is down is named in `degraded` and the
 * instance stays ready: the XMPP server or Janus is usually shared, so its outage would otherwise
 * take every instance out of the fleet at once. SECURITY: statuses only, never the error texts or
 * latencies `/api/health` gives staff (they can name internal addresses).
 */
export const readinessSchema = z.object({
  /** `draining`: the server is stopping and takes no new call (its live calls go on a while). */
  status: z.enum(['ready', 'unready', 'draining']),
  degraded: z.array(optionalDependencySchema),
  dependencies: z.object({ database: upOrDown, xmpp: upOrDown, janus: upOrDown }),
});
export type Readiness = z.infer<typeof readinessSchema>;
