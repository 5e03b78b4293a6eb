import { sql, type Kysely } from 'kysely';

/**
 * Company admin (issue 16): every change an admin makes is kept in `audit_entries` with what it
 * was before and after, and `companies.version` counts the changes to anything a guest's page
 * shows of the company, so `GET /company/:id` can carry it as an ETag and an edit made from a
 * stale copy is refused (412) instead of overwriting a colleague's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('companies')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('audit_entries')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) =>
      c.notNull().references('companies.id').onDelete('cascade'),
    )
    .addColumn('staff_id', 'integer', (c) => c.references('staff.id').onDelete('set null'))
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('audit_entries_company_time')
    .on('audit_entries')
    .columns(['company_id', 'created_at desc'])
    .execute();

  const comments: Record<string, string> = {
    'companies.version':
      "Bumped by every change to what the company's guest pages show: `GET /company/:id`'s ETag.",
    'audit_entries.staff_id':
      'The member of staff who made the change; `null` for the command line or a removed member.',
    'audit_entries.actor':
      'Who made the change as the log shows it (e-mail, or `command line`), kept after staff removal.',
    'audit_entries.action': 'What was done, e.g. `company.update`, `staff.invite`.',
    'audit_entries.target': 'What it was done to, e.g. `company 12`, `staff 7`.',
    'audit_entries.before': 'The changed fields as they were; `null` for a creation.',
    'audit_entries.after': 'The changed fields as they became; `null` for a removal.',
  };
  for (const [column, text] of Object.entries(comments)) {
    await sql`comment on column ${sql.ref(column)} is ${sql.lit(text)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_entries').execute();
  await db.schema.alterTable('companies').dropColumn('version').execute();
}
