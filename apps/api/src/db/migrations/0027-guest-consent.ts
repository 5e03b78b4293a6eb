import { sql, type Kysely } from 'kysely';

/**
 * The guest's consent (issue 20 item 1, decision 0030): when a guest of a company that asks for
 * consent accepted it (only an acceptance makes a guest), and whether a call's guest chose to
 * call without recording where the company lets them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('guests').addColumn('consent_given_at', 'timestamptz').execute();
  await db.schema
    .alterTable('call_reports')
    .addColumn('recording_declined', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`comment on column guests.consent_given_at is ${sql.lit(
    "When the guest accepted the company's consent text at registration; `null` where the company asked for none.",
  )}`.execute(db);
  await sql`comment on column call_reports.recording_declined is ${sql.lit(
    "The guest chose to call without recording (the company's recordingOptional): Janus did not record the room.",
  )}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('guests').dropColumn('consent_given_at').execute();
  await db.schema.alterTable('call_reports').dropColumn('recording_declined').execute();
}
