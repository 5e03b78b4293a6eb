import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { verifyAccessToken } from '../auth/access-token.ts';
import { SharedCounters, sharedRateLimitStore } from '../cluster/shared-counters.ts';
import { HttpError } from './errors.ts';

const MINUTE = 60_000;

/** At most `max` requests in each window of `timeWindow` ms (fixed windows). */
type Limit = { max: number; timeWindow: number };

/**
 * Per-address limits of the calls that cost the most or invite guessing. Counters live in
 * PostgreSQL, shared by every API process (decision 0038): behind a load balancer a limit is met
 * at the same count however the requests were spread (replicas need `TRUST_PROXY` so the address
 * is the visitor's).
 */
export const RATE_LIMITS = {
  guestAuth: { max: 30, timeWindow: MINUTE },
  /** A console refreshes every few minutes; more is someone trying refresh tokens. */
  refresh: { max: 30, timeWindow: MINUTE },
  upload: { max: 30, timeWindow: MINUTE },
  /** The error-reporting SDK batches; a page in trouble still sends only a few a minute. */
  monitoring: { max: 60, timeWindow: MINUTE },
  geofence: { max: 60, timeWindow: MINUTE },
  /** Calls, hold-calls, bug reports and forms: a person makes a handful a minute. */
  guestActions: { max: 60, timeWindow: MINUTE },
  /**
   * Every staff or operator sign-in and password change, right or wrong, on top of the failed
   * ones' limits: each attempt costs a password hash and its counters' writes, so one address
   * cannot spend them at request speed. Generous, because a contact centre's whole office signs
   * in from one address at the start of a shift.
   */
  signIn: { max: 60, timeWindow: MINUTE },
} as const satisfies Record<string, Limit>;

/**
 * Limits per account, on top of the per-address ones: one guest (or member of staff) however many
 * addresses it uses, and one company however many guests flood it. SECURITY: a flood from many
 * addresses still meets the company's limit, so it cannot fill a company's queue or disk.
 */
export const ACCOUNT_LIMITS = {
  /** Registrations per company: a busy site's visitors, not a script's. */
  registerPerCompany: { max: 600, timeWindow: MINUTE },
  callsPerGuest: { max: 30, timeWindow: MINUTE },
  callsPerCompany: { max: 300, timeWindow: MINUTE },
  bugsPerGuest: { max: 30, timeWindow: MINUTE },
  formsPerGuest: { max: 30, timeWindow: MINUTE },
  uploadsPerGuest: { max: 20, timeWindow: MINUTE },
  /**
   * A company admin's or the platform operator's changes: a person's pace with room for undo
   * bursts. SECURITY: each may keep an audit entry of up to ~2 MB, so a script cannot grow the
   * log, or the work of the company lock, at request speed.
   */
  adminWrites: { max: 120, timeWindow: MINUTE },
  /**
   * A company admin's guest exports (decision 0032): each streams a guest's files and films and
   * keeps an audit entry, so a script cannot read the disk, or grow the log, at request speed.
   */
  guestExports: { max: 10, timeWindow: MINUTE },
  /** Error reports from every page of every company together: the disk they land on is one. */
  monitoringOverall: { max: 600, timeWindow: MINUTE },
} as const satisfies Record<string, Limit>;

/**
 * Failed staff sign-ins (password guessing): per address, and per e-mail whatever the address
 * (guessing one account from many addresses). Successful sign-ins are not counted.
 */
export const FAILED_SIGN_IN_LIMITS = {
  perAddress: { max: 10, windowMs: 60_000 },
  perEmail: { max: 20, windowMs: 15 * 60_000 },
} as const;

export const tooMany = (after: string) =>
  new HttpError(429, 'rate_limited', `Too many requests: try again in ${after}.`);

/** Enables `config.rateLimit` on routes; nothing is limited unless a route asks. */
export async function registerRateLimits(app: FastifyInstance) {
  await app.register(rateLimit, {
    global: false,
    store: sharedRateLimitStore(new SharedCounters(app.db)),
    errorResponseBuilder: (_request, context) => tooMany(context.after),
  });
}

/** The bearer token's principal, for keying; routes still authenticate on their own. */
async function principalOf(request: FastifyRequest) {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1]
    ? verifyAccessToken(request.server.config.secrets.apiToken, match[1])
    : undefined;
}

/** Who a request speaks for: a guest or member of staff by its token, else its address. */
export async function accountKey(request: FastifyRequest): Promise<string> {
  const principal = await principalOf(request);
  if (!principal) return `ip:${request.ip}`;
  return principal.role === 'guest' ? `guest:${principal.guestId}` : `staff:${principal.staffId}`;
}

/** The company a request acts for, by its token, else its address. */
export async function companyKey(request: FastifyRequest): Promise<string> {
  const principal = await principalOf(request);
  return principal ? `company:${principal.companyId}` : `ip:${request.ip}`;
}

/**
 * A pre-handler that counts requests under `name` and the key `keyOf` gives, and answers 429
 * past `limit`. It runs after validation, so `keyOf` may read the parsed body. (`createRateLimit`
 * rather than `rateLimit`: the latter runs once per request, and a route has its per-address
 * limit already.)
 */
export function limitBy(
  app: FastifyInstance,
  name: keyof typeof ACCOUNT_LIMITS,
  keyOf: (request: FastifyRequest) => string | Promise<string>,
): preHandlerAsyncHookHandler {
  const check = app.createRateLimit({
    ...ACCOUNT_LIMITS[name],
    // Every limiter counts in the shared table: the name keeps the limits apart, and the limiters
    // of one name (`adminWrites` of each admin scope) count together.
    keyGenerator: async (request) => `${name}:${await keyOf(request)}`,
  });
  return async (request) => {
    const outcome = await check(request);
    if (!outcome.isAllowed && outcome.isExceeded) {
      throw tooMany(`${outcome.ttlInSeconds} seconds`);
    }
  };
}

/** An account limit of {@link ACCOUNT_LIMITS} and the key it counts a request under. */
type AccountLimit = readonly [
  name: keyof typeof ACCOUNT_LIMITS,
  keyOf: (request: FastifyRequest) => Promise<string>,
];

/**
 * A pre-handler in place of a route's `config.rateLimit` and its `limitBy` pre-handlers: the
 * route's per-address limit, then each account limit, counted in one statement instead of one
 * round trip each (decision 0043), in that order, and each only while the ones before it let the
 * request through — so, as when they ran one after another, a request refused by one limit
 * counts against none after it: a guest's own flood never spends its company's budget. All of
 * them count the requests the route validated, as the account limits always did (the plugin's
 * counted the address's before validation); the address is counted under the key the plugin's
 * route limit used. A refusal answers 429 with Retry-After.
 */
export function limitInOrder(
  app: FastifyInstance,
  perAddress: Limit,
  accounts: readonly AccountLimit[],
): preHandlerAsyncHookHandler {
  const counters = new SharedCounters(app.db);
  return async (request, reply) => {
    const limits = [
      {
        key: `${request.method} ${request.routeOptions.url} ${request.ip}`,
        windowMs: perAddress.timeWindow,
        max: perAddress.max,
      },
      ...(await Promise.all(
        accounts.map(async ([name, keyOf]) => ({
          key: `${name}:${await keyOf(request)}`,
          windowMs: ACCOUNT_LIMITS[name].timeWindow,
          max: ACCOUNT_LIMITS[name].max,
        })),
      )),
    ];
    const counts = await counters.hitInOrder(limits);
    const refused = counts.find((count, i) => count.hits > (limits[i]?.max ?? Infinity));
    if (refused) {
      const seconds = Math.max(1, Math.ceil(refused.ttlMs / 1000));
      void reply.header('retry-after', String(seconds));
      throw tooMany(`${seconds} seconds`);
    }
  };
}

/**
 * Counts every write (not GET) of the routes registered in `app`'s scope under `adminWrites`,
 * per member of staff (or address, for the operator's own tokens).
 */
export function limitAdminWrites(app: FastifyInstance): void {
  const limit = limitBy(app, 'adminWrites', accountKey);
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      await limit.call(app, request, reply);
  });
}
