// The cost of placing a call's room on a Janus server (decision 0039): the API's own placement
// (MediaServerPool.place) on a schema of the machine's PostgreSQL, with 1, 2 and more registered
// servers and many live calls in call_reports, beside the floor of one single-row statement on the
// same pool, timed in turn with it so that what else runs on the box weighs on both alike.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fastify from 'fastify';
import { sql, type Kysely } from 'kysely';
import { machineDatabaseUrl } from '@frontdesk/infra';
import { seedDemo, SEEDED_COMPANY } from '@frontdesk/api/seed';
import { openDatabase } from '../../../apps/api/src/db/database.ts';
import { migrateToLatest } from '../../../apps/api/src/db/migrate.ts';
import type { Database } from '../../../apps/api/src/db/schema.ts';
import { MediaServerPool } from '../../../apps/api/src/media-servers/media-server-pool.ts';
import type { Row } from '../report.ts';
import { summarize, type Summary } from '../stats.ts';
import { inTurn } from './in-turn.ts';

export type PlacementPlan = {
  /** Registered servers in each round. */
  servers: readonly number[];
  /** Live calls in the table during every round, spread evenly over its servers. */
  liveCalls: number;
  /** Timed placements per round (after {@link WARM_UP} untimed). */
  placements: number;
  /** Placements at once for the throughput figure (each API process places on its own). */
  concurrency: number;
};

const WARM_UP = 20;

type Round = {
  servers: number;
  liveCalls: number;
  placement: Summary;
  select: Summary;
  update: Summary;
  /** Placements a second with {@link PlacementPlan.concurrency} at once, and the update's. */
  concurrentPlacementsPerS: number;
  concurrentUpdatesPerS: number;
  samples: { placement: number[]; select: number[]; update: number[] };
};

/** What a Janus answers on `/info` to the pool's health checks: every server of a round is it. */
async function startHealthyJanus(): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ janus: 'server_info' }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const elapsed = async (work: () => Promise<unknown>) => {
  const startedAt = performance.now();
  await work();
  return performance.now() - startedAt;
};

/** Rows of calls on one guest of the round-the-clock company, placed on `serverIds` in turn. */
async function insertCalls(
  db: Kysely<Database>,
  guestId: number,
  count: number,
  serverIds: readonly number[],
  prefix: string,
): Promise<number[]> {
  const ids = sql.val(serverIds.length > 0 ? serverIds : [null]);
  const { rows } = await sql<{ id: number }>`
    insert into call_reports (call_id, origin_call_id, company_id, guest_id, source, status, media_server_id)
    select ${prefix} || n, ${prefix} || n, ${SEEDED_COMPANY.aroundTheClock}, ${guestId}, 'site', 'ok',
           (${ids}::int[])[1 + n % cardinality(${ids}::int[])]
    from generate_series(1, ${count}) n
    returning id`.execute(db);
  return rows.map((row) => row.id);
}

async function runRound(
  db: Kysely<Database>,
  janusUrl: string,
  guestId: number,
  servers: number,
  plan: PlacementPlan,
): Promise<Round> {
  await db.deleteFrom('call_reports').execute();
  const pool = new MediaServerPool(
    Array.from({ length: servers }, (_, i) => ({
      name: `place${servers}-${i + 1}`,
      httpUrl: janusUrl,
      websocketUrl: janusUrl.replace('http', 'ws'),
      capacity: 40,
    })),
    db,
    fastify({ logger: false }).log,
  );
  // Registers the servers and checks them every second, as in the API, while placements run.
  await pool.start();
  try {
    const serverIds = (
      await db
        .selectFrom('media_servers')
        .select('id')
        .where('name', 'like', `place${servers}-%`)
        .execute()
    ).map((row) => row.id);
    await insertCalls(db, guestId, plan.liveCalls, serverIds, `live${servers}-`);
    const fresh = await insertCalls(
      db,
      guestId,
      WARM_UP + plan.placements * 2,
      [],
      `new${servers}-`,
    );
    await sql`analyze call_reports`.execute(db);
    const select = (id: number) =>
      db.selectFrom('call_reports').select('media_server_id').where('id', '=', id).execute();
    const update = (id: number) =>
      db.updateTable('call_reports').set({ wrapped_up_at: null }).where('id', '=', id).execute();
    const samples: Round['samples'] = { placement: [], select: [], update: [] };
    for (const [i, id] of fresh.slice(0, WARM_UP + plan.placements).entries()) {
      const placement = await elapsed(() => pool.place(id, null));
      const selected = await elapsed(() => select(id));
      const updated = await elapsed(() => update(id));
      if (i < WARM_UP) continue;
      samples.placement.push(placement);
      samples.select.push(selected);
      samples.update.push(updated);
    }
    const rest = fresh.slice(WARM_UP + plan.placements);
    const perS = async (work: (id: number) => Promise<unknown>) =>
      rest.length / (await inTurn(rest.length, plan.concurrency, (i) => work(rest[i] as number)));
    const concurrentPlacementsPerS = await perS((id) => pool.place(id, null));
    const concurrentUpdatesPerS = await perS(update);
    return {
      servers,
      liveCalls: plan.liveCalls,
      placement: summarize(samples.placement),
      select: summarize(samples.select),
      update: summarize(samples.update),
      concurrentPlacementsPerS,
      concurrentUpdatesPerS,
      samples,
    };
  } finally {
    await pool.stop();
  }
}

const spread = (s: Summary) => `p50 ${s.p50.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms`;

/**
 * Placement cost: for each server count, `placements` placements one after another (each
 * followed by a primary-key select and update of the same row, the floor), then the same
 * placements again `concurrency` at once, whose rate is set by the lock every placement takes
 * on the servers' rows, beside single-row updates at the same concurrency.
 */
export async function measurePlacement(
  plan: PlacementPlan,
  log: (line: string) => void,
): Promise<{ rows: Row[]; data: Record<string, unknown> }> {
  const schema = `bench_place_${randomBytes(6).toString('hex')}`;
  const db = await openDatabase(machineDatabaseUrl, schema);
  const janus = await startHealthyJanus();
  try {
    const fingerprintKey = randomBytes(32).toString('base64url');
    await migrateToLatest(db, { fingerprintKey });
    await seedDemo(db, { fingerprintKey });
    const { id: guestId } = await db
      .insertInto('guests')
      .values({
        username: 'gbenchplacement',
        jabberusername: 'gbenchplacement',
        fingerprint: 'benchplacement',
        company_id: SEEDED_COMPANY.aroundTheClock,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rounds: Round[] = [];
    for (const servers of plan.servers) {
      const round = await runRound(db, janus.url, guestId, servers, plan);
      rounds.push(round);
      log(
        `  placement, ${servers} servers, ${plan.liveCalls} live calls: ${spread(round.placement)}; ` +
          `select ${spread(round.select)}, update ${spread(round.update)}; ` +
          `${Math.round(round.concurrentPlacementsPerS)} placements/s at ${plan.concurrency} at once ` +
          `(updates ${Math.round(round.concurrentUpdatesPerS)}/s)`,
      );
    }
    const rows: Row[] = rounds.flatMap((round) => [
      {
        figure: `Placement, ${round.servers} server${round.servers === 1 ? '' : 's'}`,
        measured: spread(round.placement),
        goal: 'reported',
        note:
          `${round.liveCalls} live calls; floor: pk select ${spread(round.select)}, ` +
          `pk update ${spread(round.update)} (same run, same pool)`,
      },
      {
        figure: `Placements at once, ${round.servers} server${round.servers === 1 ? '' : 's'}`,
        measured: `${Math.round(round.concurrentPlacementsPerS)} /s`,
        goal: 'reported',
        note: `${plan.concurrency} at once; floor: ${Math.round(round.concurrentUpdatesPerS)} pk updates/s`,
      },
    ]);
    return { rows, data: { plan, rounds } };
  } finally {
    janus.server.close();
    await sql`drop schema ${sql.id(schema)} cascade`.execute(db);
    await db.destroy();
  }
}
