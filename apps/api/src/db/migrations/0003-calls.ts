import { sql, type Kysely } from 'kysely';

/** Call reports with their hold chain, bug reports, form and rating submissions, uploads. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('call_reports')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) =>
      c.notNull().references('companies.id').onDelete('cascade'),
    )
    .addColumn('guest_id', 'integer', (c) =>
      c.notNull().references('guests.id').onDelete('cascade'),
    )
    .addColumn('call_id', 'text', (c) => c.notNull().unique())
    // A chain root points at itself; PostgreSQL checks the reference at the end of the statement.
    .addColumn('origin_call_id', 'text', (c) =>
      c.notNull().references('call_reports.call_id').onDelete('cascade'),
    )
    .addColumn('previous_call_id', 'text', (c) =>
      c.references('call_reports.call_id').onDelete('cascade'),
    )
    .addColumn('category_id', 'integer', (c) => c.references('categories.id').onDelete('set null'))
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('site', 'widget')`))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('ok', 'outOfQuota', 'blocked')`),
    )
    .addColumn('success', 'boolean')
    .addColumn('call_type', 'text', (c) => c.check(sql`call_type in ('voice', 'video')`))
    .addColumn('rating', 'smallint', (c) => c.check(sql`rating between 1 and 5`))
    .addColumn('guest_local_sdp', 'text')
    .addColumn('guest_remote_sdp', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('call_initiated_at', 'timestamptz')
    .addColumn('guest_exit_at', 'timestamptz')
    .execute();
  // The monthly quota counts a company's chain roots by creation time.
  await db.schema
    .createIndex('call_reports_company_created')
    .on('call_reports')
    .columns(['company_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('call_reports_origin')
    .on('call_reports')
    .column('origin_call_id')
    .execute();

  await db.schema
    .createTable('call_bugs')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) =>
      c.notNull().references('companies.id').onDelete('cascade'),
    )
    .addColumn('guest_id', 'integer', (c) =>
      c.notNull().references('guests.id').onDelete('cascade'),
    )
    .addColumn('call_id', 'text', (c) => c.notNull())
    .addColumn('call_report_id', 'integer', (c) =>
      c.references('call_reports.id').onDelete('set null'),
    )
    .addColumn('guest_log', 'jsonb', (c) => c.notNull())
    .addColumn('guest_state', 'jsonb', (c) => c.notNull())
    .addColumn('guest_client_info', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('form_submissions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) =>
      c.notNull().references('companies.id').onDelete('cascade'),
    )
    .addColumn('guest_id', 'integer', (c) =>
      c.notNull().references('guests.id').onDelete('cascade'),
    )
    .addColumn('form_id', 'integer', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('service_type', 'text', (c) =>
      c.notNull().check(sql`service_type in ('Talk', 'Widget', 'All Services')`),
    )
    .addColumn('answers', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('form_submissions_guest')
    .on('form_submissions')
    .columns(['guest_id', 'service_type', 'created_at'])
    .execute();

  await db.schema
    .createTable('rating_submissions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('call_report_id', 'integer', (c) =>
      c.notNull().unique().references('call_reports.id').onDelete('cascade'),
    )
    .addColumn('form_id', 'integer', (c) => c.notNull().references('forms.id').onDelete('cascade'))
    .addColumn('guest_id', 'integer', (c) =>
      c.notNull().references('guests.id').onDelete('cascade'),
    )
    .addColumn('answers', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) =>
      c.notNull().references('companies.id').onDelete('cascade'),
    )
    .addColumn('guest_id', 'integer', (c) => c.references('guests.id').onDelete('set null'))
    .addColumn('staff_id', 'integer', (c) => c.references('staff.id').onDelete('set null'))
    .addColumn('type', 'text', (c) =>
      c.notNull().check(sql`type in ('image', 'video', 'audio', 'document')`),
    )
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('original_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'uploads',
    'rating_submissions',
    'form_submissions',
    'call_bugs',
    'call_reports',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
