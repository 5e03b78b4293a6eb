import { sql, type Kysely } from 'kysely';

/**
 * Issue 21, API replicas (decision 0038). Rate limits and failed sign-ins are counted in one
 * table every API process shares, one row per key and window, UNLOGGED: a counter is worth no
 * WAL write, and a crash that empties the table only forgives the window under way. And a call's
 * absence from its chat room is kept on the call, so the grace goes on when another process takes
 * over the sweep.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create unlogged table rate_limit_counters (
    key text primary key,
    hits integer not null check (hits >= 0),
    resets_at timestamptz not null
  )`.execute(db);
  // The once-a-minute cleanup deletes by it.
  await sql`create index rate_limit_counters_resets_at on rate_limit_counters (resets_at)`.execute(
    db,
  );
  await sql`comment on table rate_limit_counters is ${sql.lit(
    'Requests (and failed sign-ins) per limiter and key — an address, an account, an e-mail — in the fixed window that ends at `resets_at`, counted by every API process. Unlogged: emptied by a crash. Ended windows are deleted within a minute.',
  )}`.execute(db);
  await db.schema.alterTable('call_reports').addColumn('absent_since', 'timestamptz').execute();
  await sql`comment on column call_reports.absent_since is ${sql.lit(
    'While an answered call is live: when the sweep first found neither its guest nor its agent in the call’s chat room (decision 0037); `null` while a side is there or nobody can tell.',
  )}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('call_reports').dropColumn('absent_since').execute();
  await db.schema.dropTable('rate_limit_counters').execute();
}
