import { sql, type Kysely } from 'kysely';
import type {
  FastifyRateLimitOptions,
  FastifyRateLimitStore,
  FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import type { Database } from '../db/schema.ts';

/** How often one replica deletes the ended windows: a row outlives its window by at most this. */
export const RATE_LIMIT_CLEANUP_MS = 60_000;

/** A key's count in its window, and the milliseconds until the window ends. */
export type Count = { key: string; hits: number; ttlMs: number };

/** A key to count, and the length of the window a first hit opens. */
export type Counted = { key: string; windowMs: number };

/** A key to count, and the most hits its window allows. */
export type Limited = Counted & { max: number };

/** The upsert of one more hit (a new window when the key's last one ended), and its count. */
const oneMoreHit = sql`
  on conflict (key) do update set
    hits = case when c.resets_at <= now() then 1 else c.hits + 1 end,
    resets_at = case when c.resets_at <= now() then excluded.resets_at else c.resets_at end
  returning key, hits, ceil(extract(epoch from c.resets_at - now()) * 1000)::int as "ttlMs"`;

/**
 * Fixed-window counters every API process shares (decision 0038): one row of the unlogged
 * `rate_limit_counters` per key, so a limit is met at the same count however many replicas the
 * requests were spread over. Each operation is one statement; ended windows are reset in place by
 * the next hit, and deleted by {@link deleteEnded} (run once a minute by one process).
 */
export class SharedCounters {
  constructor(private readonly db: Kysely<Database>) {}

  /** One more hit of each key (a new window when its last one ended); their counts. */
  async hit(counted: readonly Counted[]): Promise<Count[]> {
    const { rows } = await sql<Count>`
      insert into rate_limit_counters as c (key, hits, resets_at)
      select key, 1, now() + window_ms * interval '1 millisecond'
      from unnest(${counted.map((c) => c.key)}::text[], ${counted.map((c) => c.windowMs)}::int[])
        as t(key, window_ms)
      -- Rows taken in key order, as forgive takes them: two statements never wait on each other.
      order by key
      ${oneMoreHit}
    `.execute(this.db);
    return rows;
  }

  /**
   * One more hit of each limit in turn, each only while every limit before it is within its
   * `max`, in one statement: a request counts against the limits up to and including the first
   * one that refuses it, never past it (decision 0043). Answers the counts of the keys it hit, in
   * `limits`' order; the last is over its `max` when the request is refused.
   */
  async hitInOrder(limits: readonly Limited[]): Promise<Count[]> {
    // One data-modifying CTE a limit, each fed by the row of the one before (so it runs after it
    // and hits nothing when that one is over): rows are taken in the limits' order.
    const stages = limits.map((limit, i) => {
      const before = limits[i - 1];
      const gate = before
        ? sql`from ${sql.id(`hit${i - 1}`)} as b where b.hits <= ${before.max}::int`
        : sql``;
      return sql`${sql.id(`hit${i}`)} as (
        insert into rate_limit_counters as c (key, hits, resets_at)
        select ${limit.key}::text, 1, now() + ${limit.windowMs}::int * interval '1 millisecond'
        ${gate}
        ${oneMoreHit}
      )`;
    });
    const counted = limits.map((_, i) => sql`select * from ${sql.id(`hit${i}`)}`);
    const { rows } = await sql<Count>`
      with ${sql.join(stages)} ${sql.join(counted, sql` union all `)}
    `.execute(this.db);
    const byKey = new Map(rows.map((row) => [row.key, row]));
    return limits.flatMap(({ key }) => byKey.get(key) ?? []);
  }

  /**
   * One hit fewer of each key, in the window under way; a key left with none is deleted, so
   * attempts taken back (a refused or right sign-in) leave no row behind.
   */
  async forgive(keys: readonly string[]): Promise<void> {
    await sql`
      with taken as (
        select key, hits from rate_limit_counters
        where key = any(${keys}::text[]) and resets_at > now() and hits > 0
        order by key
        for update
      ), emptied as (
        delete from rate_limit_counters c using taken t where c.key = t.key and t.hits = 1
      )
      update rate_limit_counters c set hits = c.hits - 1
      from taken t where c.key = t.key and t.hits > 1
    `.execute(this.db);
  }

  /** Deletes the ended windows; answers how many. */
  async deleteEnded(): Promise<number> {
    const { numAffectedRows } = await sql`
      -- Rows taken in key order, as hit and forgive take them, and those a sign-in holds skipped
      -- (the next run deletes them): the cleanup never deadlocks with a request.
      delete from rate_limit_counters where key in (
        select key from rate_limit_counters
        where resets_at <= now()
        order by key
        for update skip locked
      )
    `.execute(this.db);
    return Number(numAffectedRows ?? 0);
  }
}

/**
 * @fastify/rate-limit's store over {@link SharedCounters}: one statement per limited request.
 * A route's limiter counts under its method and path, as the plugin's Redis store does, so two
 * routes' limits on one address stay apart; a `createRateLimit` limiter (no route) is named by
 * its keys (plugins/rate-limits.ts `limitBy`).
 */
export function sharedRateLimitStore(counters: SharedCounters): FastifyRateLimitStoreCtor {
  class SharedRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: FastifyRateLimitOptions,
      private readonly prefix = '',
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      counters.hit([{ key: `${this.prefix}${key}`, windowMs: timeWindow }]).then(
        ([count]) => callback(null, { current: count?.hits ?? 0, ttl: count?.ttlMs ?? 0 }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(
      routeOptions: FastifyRateLimitOptions & { routeInfo?: { method?: unknown; url?: string } },
    ): FastifyRateLimitStore {
      const route = routeOptions.routeInfo;
      return new SharedRateLimitStore(
        routeOptions,
        route?.url ? `${String(route.method)} ${route.url} ` : '',
      );
    }
  }
  return SharedRateLimitStore;
}
