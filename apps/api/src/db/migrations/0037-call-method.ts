import { sql, type Kysely } from 'kysely';

/**
 * Issue 23, p2p calls (decision 0045): how each call's media travels, fixed when the call is
 * made (`callMethodOf`: the company's `callMethod`, but the media server for a recorded call),
 * so that a company changing its setting never changes a call already under way. Calls made
 * before all went through the media server: the default says so. The reports' facts (migration
 * 0020) need nothing from it: a call's method never changes after its insert, and the report's
 * list reads it from the origin's row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // A constant default: PostgreSQL adds the column without rewriting the table.
  await db.schema
    .alterTable('call_reports')
    .addColumn('call_method', 'text', (c) =>
      c
        .notNull()
        .defaultTo('mediaServer')
        .check(sql`call_method in ('mediaServer', 'p2p')`),
    )
    .execute();
  await sql`comment on column call_reports.call_method is ${sql.lit(
    '`mediaServer` (a Janus room) or `p2p` (straight between the two browsers), fixed when the call was made.',
  )}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('call_reports').dropColumn('call_method').execute();
}
