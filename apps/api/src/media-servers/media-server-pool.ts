import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { MediaServerConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { UpstreamError } from '../domain-errors.ts';

/** How often each API process asks every Janus of its pool how it is. */
export const HEALTH_INTERVAL_MS = 1000;
/**
 * A server with no good check for this long is lost: the next open of one of its calls moves the
 * call. Two missed checks, so one slow answer moves nothing.
 */
export const LOST_AFTER_MS = 2000;
/** A check's deadline: within the period, so checks never pile up. */
const CHECK_TIMEOUT_MS = 800;

/** A server of the pool as the API uses it: its row's id and the addresses its row holds. */
export type MediaServer = MediaServerConfig & { id: number };

/**
 * The registry's columns a `MediaServer` is made of: a call placed by another API process whose
 * JANUS_SERVERS differs (a rolling change) is served from the row that process wrote.
 */
const SERVER_COLUMNS = [
  'media_servers.id',
  'media_servers.name',
  'media_servers.http_url',
  'media_servers.websocket_url',
  'media_servers.capacity',
] as const;

type ServerRow = {
  id: number;
  name: string;
  http_url: string;
  websocket_url: string;
  capacity: number;
};

const fromRow = (row: ServerRow): MediaServer => ({
  id: row.id,
  name: row.name,
  httpUrl: row.http_url,
  websocketUrl: row.websocket_url,
  capacity: row.capacity,
});

/** Where a call's room goes now, and where it was when this request read it. */
export type Placement = { server: MediaServer; previous: MediaServer | undefined };

/** `active` or `draining` (decision 0039). */
export type MediaServerState = 'active' | 'draining';

/** Checks after this moment count: a server whose last good one is older is lost. */
const lostBefore = () => sql<Date>`now() - make_interval(secs => ${LOST_AFTER_MS / 1000})`;

/** Whether Janus answers its `info` request (no session, no token) within the deadline. */
async function answers(server: MediaServerConfig): Promise<string | null> {
  try {
    const response = await fetch(`${server.httpUrl}/info`, {
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
    const body = (await response.json()) as { janus?: unknown };
    return body.janus === 'server_info' ? null : `answered ${response.status} without server_info`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * The API's Janus servers (decision 0039): registered in `media_servers` from JANUS_SERVERS at
 * start, checked every second, and where each call's room is placed — on the least-loaded
 * healthy server that is not draining, kept there while it stays healthy, moved when it is lost.
 */
export class MediaServerPool {
  /** This process's servers: the ones it checks and places new calls on. */
  private readonly byName = new Map<string, MediaServer>();
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | null = null;

  constructor(
    private readonly configured: readonly MediaServerConfig[],
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Writes this process's servers into the registry (addresses and capacity as configured; a
   * drain stays), checks them once so the first call is placed by health, then every second.
   * A database that is down at start does not stop the API (its readiness says so): the
   * registration is tried again with each check until it is written.
   */
  async start(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => {
      // A check still running (a slow database) is not joined by the next one.
      this.checking ??= this.tick().finally(() => (this.checking = null));
    }, HEALTH_INTERVAL_MS);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.byName.size < this.configured.length) {
      try {
        await this.register();
      } catch (error) {
        this.log.warn({ err: error }, 'media servers could not be registered; trying again');
        return;
      }
    }
    await this.checkAll();
  }

  private async register(): Promise<void> {
    for (const server of this.configured) {
      const { id } = await this.db
        .insertInto('media_servers')
        .values({
          name: server.name,
          http_url: server.httpUrl,
          websocket_url: server.websocketUrl,
          capacity: server.capacity,
        })
        .onConflict((oc) =>
          oc.column('name').doUpdateSet((eb) => ({
            http_url: eb.ref('excluded.http_url'),
            websocket_url: eb.ref('excluded.websocket_url'),
            capacity: eb.ref('excluded.capacity'),
          })),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      this.byName.set(server.name, { ...server, id });
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.checking;
  }

  /** The registered server of that name (the gate's `?server=`), or undefined. */
  async named(name: string): Promise<MediaServer | undefined> {
    const row = await this.db
      .selectFrom('media_servers')
      .select(SERVER_COLUMNS)
      .where('name', '=', name)
      .executeTakeFirst();
    return row && fromRow(row);
  }

  /** The server a call was placed on, from the registry, or undefined before its first open. */
  async ofCall(call: { media_server_id: number | null }): Promise<MediaServer | undefined> {
    return call.media_server_id === null ? undefined : this.withId(call.media_server_id);
  }

  private async withId(id: number): Promise<MediaServer> {
    const row = await this.db
      .selectFrom('media_servers')
      .select(SERVER_COLUMNS)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return fromRow(row);
  }

  /**
   * Where the call's room goes: the server it was placed on while that one is healthy (a fresh
   * check in the registry, or it answers now), else a new placement.
   */
  async serverFor(callReportId: number): Promise<Placement> {
    const placed = await this.db
      .selectFrom('call_reports')
      .leftJoin('media_servers', 'media_servers.id', 'call_reports.media_server_id')
      .select((eb) => [
        'call_reports.media_server_id',
        eb('media_servers.last_healthy_at', '>', lostBefore()).as('healthy'),
      ])
      .where('call_reports.id', '=', callReportId)
      .executeTakeFirstOrThrow();
    const previous = await this.ofCall(placed);
    if (previous && (placed.healthy === true || (await this.check(previous)))) {
      return { server: previous, previous };
    }
    return { server: await this.place(callReportId, placed.media_server_id), previous };
  }

  /**
   * Places the call anew, unless another request did since `seen` was read: on the healthy,
   * active server with the fewest live calls for its capacity (ties by name), never `seen`
   * itself once it was lost. With none healthy, the least-loaded active one all the same (one
   * server being restarted: its calls wait for it). The servers' rows are locked for the
   * transaction, so placements of any API process take turns and count each other's calls.
   */
  async place(callReportId: number, seen: number | null): Promise<MediaServer> {
    const names = [...this.byName.keys()];
    const id = await this.db.transaction().execute(async (trx) => {
      await trx.selectFrom('media_servers').select('id').orderBy('id').forUpdate().execute();
      const now = await trx
        .selectFrom('call_reports')
        .select('media_server_id')
        .where('id', '=', callReportId)
        .executeTakeFirstOrThrow();
      if (now.media_server_id !== seen && now.media_server_id !== null) return now.media_server_id;
      const chosen = await trx
        .selectFrom('media_servers as s')
        .select('s.id')
        .where('s.name', 'in', names)
        .where('s.state', '=', 'active')
        .orderBy(
          (eb) =>
            eb.and([
              eb('s.last_healthy_at', '>', lostBefore()),
              seen === null ? eb.lit(true) : eb('s.id', '<>', seen),
            ]),
          (ob) => ob.desc().nullsLast(),
        )
        .orderBy(
          sql`(select count(*) from call_reports c where c.media_server_id = s.id and c.ended_at is null)::float / s.capacity`,
        )
        .orderBy('s.name')
        .limit(1)
        .executeTakeFirst();
      if (!chosen) {
        throw new UpstreamError(
          'media_unavailable',
          'No media server takes new calls now: try again later.',
        );
      }
      await trx
        .updateTable('call_reports')
        .set({ media_server_id: chosen.id })
        .where('id', '=', callReportId)
        .execute();
      return chosen.id;
    });
    const server = await this.withId(id);
    if (seen !== null && seen !== id) {
      this.log.warn(
        { callReportId, fromId: seen, to: server.name },
        'call moved to another media server',
      );
    }
    return server;
  }

  /** Asks one server how it is and stamps the answer in the registry; true when it answered. */
  async check(server: MediaServer): Promise<boolean> {
    const error = await answers(server);
    await this.db
      .updateTable('media_servers')
      .set({
        last_checked_at: sql`now()`,
        last_error: error,
        ...(error === null ? { last_healthy_at: sql`now()` } : {}),
      })
      .where('id', '=', server.id)
      .execute();
    return error === null;
  }

  private async checkAll(): Promise<void> {
    try {
      await Promise.all([...this.byName.values()].map((server) => this.check(server)));
    } catch (error) {
      this.log.warn({ err: error }, 'media server health could not be recorded');
    }
  }
}

/**
 * Drains a server (no new call is placed on it; its live calls go on) or makes it active again:
 * `npm run media-servers`. False when no server has that name.
 */
export async function setMediaServerState(
  db: Kysely<Database>,
  name: string,
  state: MediaServerState,
): Promise<boolean> {
  const updated = await db
    .updateTable('media_servers')
    .set({ state })
    .where('name', '=', name)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/** Each server of the registry with its state, health and live calls, for the operator. */
export async function listMediaServers(db: Kysely<Database>) {
  return db
    .selectFrom('media_servers as s')
    .select((eb) => [
      's.name',
      's.state',
      's.capacity',
      's.last_healthy_at',
      's.last_error',
      eb
        .selectFrom('call_reports as c')
        .select((c) => c.fn.countAll<string>().as('n'))
        .whereRef('c.media_server_id', '=', 's.id')
        .where('c.ended_at', 'is', null)
        .as('live_calls'),
    ])
    .orderBy('s.name')
    .execute();
}
