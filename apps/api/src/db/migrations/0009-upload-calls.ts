import type { Kysely } from 'kysely';

/**
 * A guest's upload belongs to its live call (issue 13 "Abuse limits"): what a call received is
 * counted against the per-call quota.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('uploads')
    .addColumn('call_report_id', 'integer', (c) =>
      c.references('call_reports.id').onDelete('set null'),
    )
    .execute();
  await db.schema
    .createIndex('uploads_call_report')
    .on('uploads')
    .column('call_report_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('uploads').dropColumn('call_report_id').execute();
}
