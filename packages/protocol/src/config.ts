import { z } from 'zod';

/** One ICE server as RTCPeerConnection takes it. */
export const iceServerSchema = z.object({
  urls: z.union([z.string(), z.array(z.string())]),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof iceServerSchema>;

/** `GET /api/config`: where a browser finds the three channels (all on the page's own origin). */
export const clientConfigSchema = z.object({
  apiBase: z.string(),
  xmppWebsocketUrl: z.string(),
  xmppDomain: z.string(),
  janusWebsocketUrl: z.string(),
  /** Browser error reporting (spec §7): off when null; events travel through our own tunnel. */
  errorReporting: z.object({ dsn: z.string(), tunnel: z.string() }).nullable(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;

export const dependencyStatusSchema = z.object({
  status: z.enum(['up', 'down']),
  latencyMs: z.number().nonnegative().optional(),
  error: z.string().optional(),
});
export type DependencyStatus = z.infer<typeof dependencyStatusSchema>;

/**
 * `GET /api/health`: up only when every dependency is. SECURITY: `dependencies` (each one's
 * status, latency and error text, which can name internal addresses) is answered only to a
 * signed-in agent or admin; anyone else learns up or down.
 */
export const healthSchema = z.object({
  status: z.enum(['up', 'down']),
  dependencies: z
    .object({
      database: dependencyStatusSchema,
      xmpp: dependencyStatusSchema,
      janus: dependencyStatusSchema,
    })
    .optional(),
});
export type Health = z.infer<typeof healthSchema>;
