import { sql, type Kysely } from 'kysely';

/**
 * A guest's rights (issue 20 item 3, decision 0032): an erased guest's calls stay for the
 * reports, marked so the console can say why they name nobody.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table call_reports add column guest_erased_at timestamptz`.execute(db);
  await sql`comment on column call_reports.guest_erased_at is ${sql.lit(
    'When an admin erased the guest’s data (decision 0032): the call’s facts stay, who the guest was and what they said are gone.',
  )}`.execute(db);
  await sql`comment on column call_recordings.expired_at is ${sql.lit(
    'When the film was deleted, by the retention run or with its guest’s data (the row stays so the reports still count it).',
  )}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`comment on column call_recordings.expired_at is ${sql.lit(
    'When the retention run deleted the film (the row stays so the reports still count it).',
  )}`.execute(db);
  await sql`alter table call_reports drop column guest_erased_at`.execute(db);
}
