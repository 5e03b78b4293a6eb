import { sql, type Kysely } from 'kysely';

/**
 * What the agent's guest panel shows besides the welcome answers (issue 19 item 2): the browser
 * the guest called from (its User-Agent as `call-report/add` received it, cut to 512
 * characters), and the position the guest last passed the company's service-area check with —
 * kept only where the company asks for the location, since the check is made only then.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('call_reports').addColumn('guest_user_agent', 'text').execute();
  await db.schema
    .alterTable('guests')
    .addColumn('location_lat', 'double precision')
    .addColumn('location_lng', 'double precision')
    .execute();
  await sql`comment on column call_reports.guest_user_agent is ${sql.lit(
    "The guest browser's User-Agent when it reported the call (at most 512 characters), for the agent's guest panel.",
  )}`.execute(db);
  await sql`comment on column guests.location_lat is ${sql.lit(
    "The latitude the guest last passed the company's service-area check at; `null` after a failed check.",
  )}`.execute(db);
  await sql`comment on column guests.location_lng is ${sql.lit(
    "The longitude the guest last passed the company's service-area check at; `null` after a failed check.",
  )}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('call_reports').dropColumn('guest_user_agent').execute();
  await db.schema
    .alterTable('guests')
    .dropColumn('location_lat')
    .dropColumn('location_lng')
    .execute();
}
