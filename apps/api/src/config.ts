import { z } from 'zod';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { mediaServerNameSchema } from '@frontdesk/protocol';
import { DEFAULT_STUN_URL, type IceConfig } from './calls/ice-servers.ts';
import type { TurnCli } from './observability/turn-allocations.ts';

const port = z.coerce.number().int().min(0).max(65535);

/** `203.0.113.7`, `10.0.0.0/8`, `::1`, `fd00::/8`: one address, or a range by its prefix length. */
function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const commaList = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** A Janus server of the pool: browsers name it in `/janus-ws?server=<name>`. */
const mediaServerSchema = z.strictObject({
  name: mediaServerNameSchema,
  httpUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' }),
  websocketUrl: z.url({ protocol: /^wss?$/, error: 'must be a ws(s):// URL' }),
  /** How many calls it takes: placement counts its live calls against it. */
  capacity: z.number().int().min(1).max(100_000),
});
export type MediaServerConfig = z.infer<typeof mediaServerSchema>;

/** The name the pool's one server has when JANUS_SERVERS is unset (`/janus-ws` without a query). */
export const LOCAL_MEDIA_SERVER = 'local';
/** Capacity of the `local` server: one machine's clean 1:1 video calls (issue 21). */
const LOCAL_CAPACITY = 40;

const janusServersSchema = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(mediaServerSchema)
      .min(1)
      .refine(
        (servers) => new Set(servers.map((s) => s.name)).size === servers.length,
        'each name once',
      ),
  );

/**
 * Everything the API reads from its environment, checked once at start-up. `npm start` fills
 * the service URLs and secrets from the data folder; a deployment sets them itself.
 */
export const envSchema = z
  .object({
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
    /**
     * The Janus pool (decision 0039): a JSON array of `{name, httpUrl, websocketUrl, capacity}`.
     * Unset: one server named `local` at JANUS_HTTP_URL and JANUS_WEBSOCKET_UPSTREAM.
     */
    JANUS_SERVERS: janusServersSchema.optional(),
    /** Comma-separated origins allowed to open the XMPP and Janus WebSockets besides our own. */
    ALLOWED_ORIGINS: z.string().default(''),
    /**
     * The STUN server browsers are given; unset: the first TURN server's host, which serves STUN
     * too, else {@link DEFAULT_STUN_URL} (spec §9); `none`: no STUN server at all.
     */
    STUN_URL: z
      .string()
      .regex(/^(stuns?:[^\s,]+|none)$/, 'must be a stun: or stuns: URL, or none')
      .optional(),
    /** TURN relays for the parties of a call, comma-separated `turn:`/`turns:` URLs; unset: none. */
    TURN_URLS: z
      .string()
      .regex(
        /^(turns?:[^\s,]+)(,turns?:[^\s,]+)*$/,
        'must be turn: or turns: URLs separated by commas',
      )
      .optional(),
    /** Shared with the TURN server (coturn `static-auth-secret`); required with TURN_URLS. */
    TURN_SECRET: z.string().min(16).optional(),
    /** How long a relay credential stays valid, in seconds: at most an hour. */
    TURN_TTL_SECONDS: z.coerce.number().int().min(60).max(3600).default(3600),
    /**
     * coturn's CLI (`cli-ip:cli-port`, e.g. `127.0.0.1:5766`), where `/metrics` counts the TURN
     * allocations; unset: no TURN figures.
     */
    TURN_CLI_ADDRESS: z
      .string()
      .regex(/^[\w.-]+:\d{1,5}$/, 'must be host:port')
      .refine((text) => Number(text.split(':').at(-1)) <= 65535, 'must be host:port')
      .optional(),
    /** coturn's `cli-password`; required with TURN_CLI_ADDRESS. */
    TURN_CLI_PASSWORD: z.string().min(16).optional(),
    /**
     * The HTTPS address browsers use (`npm start` in public mode, behind Caddy): the admins'
     * self-test checks its DNS, certificate and redirect. Unset: local mode, nothing to check.
     */
    FRONTDESK_PUBLIC_URL: z
      .url({ protocol: /^https$/, error: 'must be an https:// URL' })
      .optional(),
    /**
     * The public addresses of a 1:1 NAT in front of this machine, comma-separated (Janus's
     * `nat_1_1_mapping`): the self-test counts them as this machine's.
     */
    JANUS_PUBLIC_IP: z
      .string()
      .refine(
        (text) => commaList(text).every((entry) => isIP(entry) !== 0),
        'must be IP addresses separated by commas',
      )
      .default(''),
    /** Signs the XMPP server's JWT logins (ejabberd `jwt_key`): base64url of 32 random bytes. */
    XMPP_JWT_SECRET: z.string().min(32),
    /** Janus `token_auth_secret`: signs the tokens the API hands to browsers. */
    JANUS_TOKEN_SECRET: z.string().min(16),
    /** Janus videoroom `admin_key`: only the API creates rooms. SECURITY: never sent to browsers. */
    JANUS_ADMIN_KEY: z.string().min(16),
    /** Signs the API's own access tokens (guests, agents, admins). */
    API_TOKEN_SECRET: z.string().min(32),
    /**
     * Keys the HMAC the database keeps of each browser fingerprint (decision 0033). Changing it
     * makes every block list entry stop matching: keep it with the database's backups.
     */
    GUEST_FINGERPRINT_KEY: z.string().min(32),
    /**
     * The DSN the browser error-reporting SDK is configured with; `/api/monitoring` relays only
     * envelopes for it. Without it the tunnel is off.
     */
    SENTRY_DSN: z.url().optional(),
    /** `true`: forward envelopes to the DSN's server; otherwise keep them in the data folder. */
    SENTRY_FORWARD: z.enum(['true', 'false']).default('false'),
    /** Days the browsers' error reports kept in the data folder are kept (decision 0031). */
    MONITORING_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    /** Days the services' rotated log files are kept, by their last write (decision 0031). */
    LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    /** Round robin: how long a waiting call stays offered to one agent before the next. */
    ROUND_ROBIN_OFFER_MS: z.coerce.number().int().min(1000).default(20_000),
    /** What one call may receive in files from its guest, in all (MB). */
    UPLOAD_QUOTA_PER_CALL_MB: z.coerce.number().positive().default(100),
    /**
     * On SIGTERM, how long live calls may go on while the server takes no new ones (0: stop at
     * once). The supervisor waits this long, and a little more, before it kills the API.
     */
    DRAIN_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(0),
    /** How long company details are kept between loads (0: never kept). */
    COMPANY_DETAILS_CACHE_MS: z.coerce.number().int().min(0).default(5000),
    GUEST_APP_DIR: z.string().optional(),
    CONSOLE_APP_DIR: z.string().optional(),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    /**
     * `true`: the log also shows visitors' addresses, query values and database error details,
     * for debugging; otherwise none of them (decision 0033).
     */
    LOG_PERSONAL_DATA: z.enum(['true', 'false']).default('false'),
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
    /**
     * Lets a scraper read `/metrics` from any address with `Authorization: Bearer <token>`.
     * Unset: only loopback and `METRICS_ALLOWED_ADDRESSES` may read it.
     */
    METRICS_TOKEN: z.string().min(32).optional(),
    /** Comma-separated addresses and CIDR ranges that may read `/metrics` without the token. */
    METRICS_ALLOWED_ADDRESSES: z
      .string()
      .refine(
        (text) => commaList(text).every(isAddressOrRange),
        'must be IP addresses or CIDR ranges separated by commas',
      )
      .default(''),
  })
  .refine((e) => e.TURN_URLS === undefined || e.TURN_SECRET !== undefined, {
    path: ['TURN_SECRET'],
    message: 'is required with TURN_URLS (the secret shared with the TURN server)',
  })
  .refine((e) => e.TURN_CLI_ADDRESS === undefined || e.TURN_CLI_PASSWORD !== undefined, {
    path: ['TURN_CLI_PASSWORD'],
    message: "is required with TURN_CLI_ADDRESS (coturn's cli-password)",
  });

/** STUN and TURN for the calls' peer connections (calls/ice-servers.ts). */
function iceConfig(e: z.infer<typeof envSchema>): IceConfig {
  const turnUrls = e.TURN_URLS?.split(',') ?? [];
  // A TURN server answers STUN on its plain port too: `turn:host:3478?transport=tcp` → `stun:host:3478`.
  const stunOfTurn = turnUrls
    .find((url) => url.startsWith('turn:'))
    ?.replace(/^turn:/, 'stun:')
    .replace(/\?.*$/, '');
  return {
    stunUrl: e.STUN_URL === 'none' ? null : (e.STUN_URL ?? stunOfTurn ?? DEFAULT_STUN_URL),
    turnUrls,
    turnSecret: e.TURN_SECRET ?? null,
    turnTtlSeconds: e.TURN_TTL_SECONDS,
  };
}

/** coturn's CLI from `TURN_CLI_ADDRESS` (its port is last: a host name has no colon). */
function turnCli(e: z.infer<typeof envSchema>): TurnCli | undefined {
  if (e.TURN_CLI_ADDRESS === undefined || e.TURN_CLI_PASSWORD === undefined) return undefined;
  const at = e.TURN_CLI_ADDRESS.lastIndexOf(':');
  return {
    host: e.TURN_CLI_ADDRESS.slice(0, at),
    port: Number(e.TURN_CLI_ADDRESS.slice(at + 1)),
    password: e.TURN_CLI_PASSWORD,
  };
}

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
    /** The Janus pool (decision 0039); every API replica is given the same list. */
    janus: {
      servers: e.JANUS_SERVERS ?? [
        {
          name: LOCAL_MEDIA_SERVER,
          httpUrl: e.JANUS_HTTP_URL,
          websocketUrl: e.JANUS_WEBSOCKET_UPSTREAM,
          capacity: LOCAL_CAPACITY,
        },
      ],
    },
    allowedOrigins: e.ALLOWED_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    ice: iceConfig(e),
    /** What the admins' self-test checks of the public side (apps/api/src/doctor/). */
    publicSide: {
      url: e.FRONTDESK_PUBLIC_URL === undefined ? undefined : new URL(e.FRONTDESK_PUBLIC_URL),
      natAddresses: commaList(e.JANUS_PUBLIC_IP),
    },
    secrets: {
      xmppJwt: e.XMPP_JWT_SECRET,
      janusToken: e.JANUS_TOKEN_SECRET,
      janusAdminKey: e.JANUS_ADMIN_KEY,
      apiToken: e.API_TOKEN_SECRET,
      guestFingerprint: e.GUEST_FINGERPRINT_KEY,
    },
    monitoring: { dsn: e.SENTRY_DSN, forward: e.SENTRY_FORWARD === 'true' },
    /** The instance's own retention periods, in days (the companies set theirs). */
    retention: {
      monitoringEnvelopes: e.MONITORING_RETENTION_DAYS,
      serverLogs: e.LOG_RETENTION_DAYS,
    },
    roundRobinOfferMs: e.ROUND_ROBIN_OFFER_MS,
    companyDetailsCacheMs: e.COMPANY_DETAILS_CACHE_MS,
    drainGraceMs: e.DRAIN_GRACE_SECONDS * 1000,
    uploadQuotaPerCallBytes: Math.floor(e.UPLOAD_QUOTA_PER_CALL_MB * 1024 * 1024),
    guestAppDir: e.GUEST_APP_DIR ?? resolve(repoRoot, 'apps/guest/dist'),
    consoleAppDir: e.CONSOLE_APP_DIR ?? resolve(repoRoot, 'apps/console/dist'),
    logLevel: e.LOG_LEVEL,
    logPersonalData: e.LOG_PERSONAL_DATA === 'true',
    /** Fastify's `trustProxy`: `false`, a hop count, or the trusted addresses. */
    trustProxy:
      e.TRUST_PROXY === undefined
        ? false
        : /^\d+$/.test(e.TRUST_PROXY)
          ? Number(e.TRUST_PROXY)
          : e.TRUST_PROXY.split(','),
    /** Who may read `/metrics` besides loopback (docs/operations.md, "Metrics and probes"). */
    metrics: { token: e.METRICS_TOKEN, allowedAddresses: commaList(e.METRICS_ALLOWED_ADDRESSES) },
    /** Where `/metrics` asks coturn for its allocations (observability/turn-allocations.ts). */
    turnCli: turnCli(e),
  };
}
