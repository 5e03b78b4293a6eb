import { sql, type Kysely } from 'kysely';

/**
 * Whether the guest's page is a native app's webview (spec §7 `?webview=true`, issue 18): kept
 * with the call so that whoever makes its Janus room first — the guest, the agent's claim, or
 * either after Janus lost its rooms — makes one the webview can decode (H.264).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('call_reports')
    .addColumn('webview', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`comment on column call_reports.webview is ${sql.lit(
    "The guest's page is a native app's webview: the call's Janus room is made for H.264.",
  )}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('call_reports').dropColumn('webview').execute();
}
