import { sql, type Kysely } from 'kysely';

/** Companies and what shapes their guests' screens: categories, timetable, forms, zones. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('companies')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('activated', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('conference_name', 'text', (c) => c.notNull().unique())
    .addColumn('monthly_call_quota', 'integer', (c) => c.check(sql`monthly_call_quota >= 0`))
    .addColumn('settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('categories')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) =>
      c.notNull().references('companies.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('room_name', 'text', (c) => c.notNull().unique())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('categories_company').on('categories').column('company_id').execute();

  await db.schema
    .createTable('schedules')
    .addColumn('company_id', 'integer', (c) =>
      c.primaryKey().references('companies.id').onDelete('cascade'),
    )
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('schedule_hours')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) =>
      c.notNull().references('schedules.company_id').onDelete('cascade'),
    )
    .addColumn('weekday', 'smallint', (c) => c.notNull().check(sql`weekday between 1 and 7`))
    .addColumn('opens', 'time', (c) => c.notNull())
    .addColumn('closes', 'time', (c) => c.notNull())
    .addCheckConstraint('schedule_hours_order', sql`opens < closes`)
    .execute();
  await db.schema
    .createIndex('schedule_hours_company')
    .on('schedule_hours')
    .column('company_id')
    .execute();

  await db.schema
    .createTable('forms')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) =>
      c.notNull().references('companies.id').onDelete('cascade'),
    )
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('welcome', 'rating')`))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('fields', 'jsonb', (c) => c.notNull())
    .addUniqueConstraint('forms_one_per_kind', ['company_id', 'kind'])
    .execute();

  await db.schema
    .createTable('geofence_zones')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) =>
      c.notNull().references('companies.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('area', 'jsonb', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('geofence_zones_company')
    .on('geofence_zones')
    .column('company_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'geofence_zones',
    'forms',
    'schedule_hours',
    'schedules',
    'categories',
    'companies',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
