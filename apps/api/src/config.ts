import { z } from 'zod';
import { resolve } from 'node:path';

const port = z.coerce.number().int().min(0).max(65535);

/**
 * Everything the API reads from its environment, checked once at start-up. `npm start` fills
 * the service URLs and secrets from the data folder; a deployment sets them itself.
 */
export const envSchema = z.object({
  PORT: port.default(8080),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.string().min(1),
  /** Tests give each run its own schema so runs never see each other's rows. */
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .optional(),
  FRONTDESK_DATA_DIR: z.string().default('data'),
  XMPP_DOMAIN: z.string().default('frontdesk.localhost'),
  XMPP_WEBSOCKET_UPSTREAM: z.string().default('ws://127.0.0.1:5280/ws'),
  XMPP_ADMIN_URL: z.string().default('http://127.0.0.1:5385/api'),
  JANUS_WEBSOCKET_UPSTREAM: z.string().default('ws://127.0.0.1:8188'),
  JANUS_HTTP_URL: z.string().default('http://127.0.0.1:8088/janus'),
  /** Comma-separated origins allowed to open the XMPP and Janus WebSockets besides our own. */
  ALLOWED_ORIGINS: z.string().default(''),
  STUN_URL: z.string().default(''),
  /** Signs the XMPP server's JWT logins (ejabberd `jwt_key`): base64url of 32 random bytes. */
  XMPP_JWT_SECRET: z.string().min(32),
  /** Janus `token_auth_secret`: signs the tokens the API hands to browsers. */
  JANUS_TOKEN_SECRET: z.string().min(16),
  /** Janus videoroom `admin_key`: only the API creates rooms. SECURITY: never sent to browsers. */
  JANUS_ADMIN_KEY: z.string().min(16),
  /** Signs the API's own access tokens (guests, agents, admins). */
  API_TOKEN_SECRET: z.string().min(32),
  /**
   * The DSN the browser error-reporting SDK is configured with; `/api/monitoring` relays only
   * envelopes for it. Without it the tunnel is off.
   */
  SENTRY_DSN: z.url().optional(),
  /** `true`: forward envelopes to the DSN's server; otherwise keep them in the data folder. */
  SENTRY_FORWARD: z.enum(['true', 'false']).default('false'),
  /** Round robin: how long a waiting call stays offered to one agent before the next. */
  ROUND_ROBIN_OFFER_MS: z.coerce.number().int().min(1000).default(20_000),
  /** What one call may receive in files from its guest, in all (MB). */
  UPLOAD_QUOTA_PER_CALL_MB: z.coerce.number().positive().default(100),
  /** How long company details are kept between loads (0: never kept). */
  COMPANY_DETAILS_CACHE_MS: z.coerce.number().int().min(0).default(5000),
  GUEST_APP_DIR: z.string().optional(),
  CONSOLE_APP_DIR: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Which proxies in front of the API to believe about the visitor's address (X-Forwarded-For):
   * a number of hops, or a comma-separated list of addresses and CIDR ranges. Unset: none, so the
   * address is the connection's. SECURITY: the per-address limits count what this yields.
   */
  TRUST_PROXY: z
    .string()
    .regex(
      /^(\d{1,2}|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$/,
      'must be a number of hops or addresses/CIDRs separated by commas',
    )
    .optional(),
});

const repoRoot = resolve(import.meta.dirname, '../../..');

/** What the API runs with: its environment, checked by {@link envSchema} and shaped for use. */
export type Config = ReturnType<typeof loadConfig>;

/** Parses the environment; throws one readable error listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databaseSchema: e.DATABASE_SCHEMA,
    dataDir: resolve(e.FRONTDESK_DATA_DIR),
    xmpp: {
      domain: e.XMPP_DOMAIN,
      websocketUpstream: e.XMPP_WEBSOCKET_UPSTREAM,
      adminUrl: e.XMPP_ADMIN_URL,
    },
    janus: { websocketUpstream: e.JANUS_WEBSOCKET_UPSTREAM, httpUrl: e.JANUS_HTTP_URL },
    allowedOrigins: e.ALLOWED_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    stunUrl: e.STUN_URL,
    secrets: {
      xmppJwt: e.XMPP_JWT_SECRET,
      janusToken: e.JANUS_TOKEN_SECRET,
      janusAdminKey: e.JANUS_ADMIN_KEY,
      apiToken: e.API_TOKEN_SECRET,
    },
    monitoring: { dsn: e.SENTRY_DSN, forward: e.SENTRY_FORWARD === 'true' },
    roundRobinOfferMs: e.ROUND_ROBIN_OFFER_MS,
    companyDetailsCacheMs: e.COMPANY_DETAILS_CACHE_MS,
    uploadQuotaPerCallBytes: Math.floor(e.UPLOAD_QUOTA_PER_CALL_MB * 1024 * 1024),
    guestAppDir: e.GUEST_APP_DIR ?? resolve(repoRoot, 'apps/guest/dist'),
    consoleAppDir: e.CONSOLE_APP_DIR ?? resolve(repoRoot, 'apps/console/dist'),
    logLevel: e.LOG_LEVEL,
    /** Fastify's `trustProxy`: `false`, a hop count, or the trusted addresses. */
    trustProxy:
      e.TRUST_PROXY === undefined
        ? false
        : /^\d+$/.test(e.TRUST_PROXY)
          ? Number(e.TRUST_PROXY)
          : e.TRUST_PROXY.split(','),
  };
}
