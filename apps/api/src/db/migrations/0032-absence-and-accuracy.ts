import { sql, type Kysely } from 'kysely';

/**
 * Issue 19's leftovers. A call leg may end `absence`: neither its guest nor its agent was in the
 * call's chat room for the grace a reloading page gets (decision 0037), so the API ended it —
 * both pages had gone without hanging up. Kept apart from `server` (a newer call of the guest, a
 * hold-call) so a report says that nobody ended the call. And the guest's kept position gets its
 * accuracy, for the agent's panel.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await setEndedBy(db, ['guest', 'agent', 'server', 'absence']);
  await db.schema.alterTable('guests').addColumn('location_accuracy', 'double precision').execute();
  await sql`comment on column guests.location_accuracy is ${sql.lit(
    'How far off, in metres, the guest’s browser said its last passing position may be; `null` when it did not say, or after a failed check.',
  )}`.execute(db);
  await sql`comment on column call_reports.ended_by is ${sql.lit(
    'Who ended the call: the guest, the agent, the server (a newer call of the guest, a hold-call), or `absence` (neither side was in the call’s chat room for the reload grace: the API ended it). `null` while live.',
  )}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('guests').dropColumn('location_accuracy').execute();
  await sql`update call_reports set ended_by = 'server' where ended_by = 'absence'`.execute(db);
  await setEndedBy(db, ['guest', 'agent', 'server']);
  await sql`comment on column call_reports.ended_by is ${sql.lit(
    'Who ended the call: the guest, the agent, or the server (a newer call of the guest, a hold-call, a sweep). `null` while live.',
  )}`.execute(db);
}

/** Replaces the column's check with one allowing exactly `values`. */
async function setEndedBy(db: Kysely<unknown>, values: readonly string[]): Promise<void> {
  await sql`alter table call_reports drop constraint if exists call_reports_ended_by_check`.execute(
    db,
  );
  await sql`alter table call_reports add constraint call_reports_ended_by_check check (ended_by in (${sql.join(
    values.map((value) => sql.lit(value)),
  )}))`.execute(db);
}
