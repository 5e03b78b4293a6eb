import { sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * Columns of `call_reports` that no report fact (migration 0020) is made from, and that a call's
 * own machinery writes while it runs: the guest's stamps (update-timestamp), its last look at its
 * place in the queue, the absence sweep's mark, its Janus room's keys and server. A change of any
 * other column still recomputes the conversation, so a column added later counts as a fact until
 * a later migration's trigger leaves it out.
 */
const NOT_FACTS = [
  'call_initiated_at',
  'guest_exit_at',
  'guest_seen_at',
  'absent_since',
  'room_pin',
  'room_secret',
  'media_server_id',
];

const UPDATE_TRIGGER = 'call_reports_report_conversations_update';

/**
 * Issue 22 (docs/performance.md, "API throughput"): what a write of a call costs for the reports'
 * facts. An update of `call_reports` recomputes its conversations only when it changed a fact's
 * column: the stamps, the queue's looks and the sweep's marks, the most frequent writes of all,
 * recompute nothing (update-timestamp's trigger took 45.9 ms of its 46.2). The refresh itself
 * stays 0020's SQL function, planned at each call: as PL/pgSQL with a generic plan it cost 1–3 ms
 * a call instead of 8–20, but a statement refreshing 100,000 conversations at once (the reports
 * benchmark's seed) ran for minutes instead of seconds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const notFacts = sql.raw(`array[${NOT_FACTS.map((column) => `'${column}'`).join(', ')}]`);
  await sql`
    create function report_conversations_of_report_updates() returns trigger
    language plpgsql as $$
    declare
      origin_ids integer[] := array(
        select o.id from call_reports o
        where o.call_id in (
          select n.origin_call_id from changed_rows n join previous_rows p on p.id = n.id
          where to_jsonb(n) - ${notFacts}::text[] is distinct from to_jsonb(p) - ${notFacts}::text[]));
    begin
      if cardinality(origin_ids) > 0 then
        perform report_conversations_refresh(origin_ids);
      end if;
      return null;
    end $$`.execute(db);
  await replaceUpdateTrigger(
    db,
    sql`referencing old table as previous_rows new table as changed_rows
      for each statement execute function report_conversations_of_report_updates()`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await replaceUpdateTrigger(
    db,
    sql`referencing new table as changed_rows
      for each statement execute function report_conversations_of_reports()`,
  );
  await sql`drop function report_conversations_of_report_updates()`.execute(db);
}

/** 0020's update trigger of `call_reports` again, with `definition` after `on call_reports`. */
async function replaceUpdateTrigger(
  db: Kysely<unknown>,
  definition: RawBuilder<unknown>,
): Promise<void> {
  await sql`drop trigger ${sql.raw(UPDATE_TRIGGER)} on call_reports`.execute(db);
  await sql`create trigger ${sql.raw(UPDATE_TRIGGER)} after update on call_reports
    ${definition}`.execute(db);
  // As 0020's: it fires even in a session that turns triggers off to load rows in bulk.
  await sql`alter table call_reports enable always trigger ${sql.raw(UPDATE_TRIGGER)}`.execute(db);
}
