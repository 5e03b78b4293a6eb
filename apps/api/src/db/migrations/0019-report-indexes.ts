import { sql, type Kysely } from 'kysely';

/**
 * Reports (issue 17, docs/reports.md): the reports read a company's conversations by the time
 * they began, newest first, and then the legs a hold or transfer added to them. An origin report
 * is the one without a previous call; a company's origins and its later legs each get an index
 * of their own, so a range of either is read without wading through the other.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('call_reports_origins_company_created')
    .on('call_reports')
    .columns(['company_id', 'created_at', 'id'])
    .where(sql.ref('previous_call_id'), 'is', null)
    .execute();
  await db.schema
    .createIndex('call_reports_later_legs_company_created')
    .on('call_reports')
    .columns(['company_id', 'created_at'])
    .where(sql.ref('previous_call_id'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('call_reports_later_legs_company_created').execute();
  await db.schema.dropIndex('call_reports_origins_company_created').execute();
}
