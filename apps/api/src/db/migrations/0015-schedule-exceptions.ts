import { sql, type Kysely } from 'kysely';

/**
 * Company admin (issue 16): timetables with nights and with dates that differ from their
 * weekday. A weekly opening may now close at or before it opens, which means it runs into the
 * next day (22:00–02:00); the rows written before, all opening before they close, keep their
 * meaning. Holidays and dates with their own hours are `schedule_exceptions`, each with its
 * openings in `schedule_exception_hours` (none: closed all day). Both go with the timetable
 * (`schedules`) when it is removed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('schedule_hours').dropConstraint('schedule_hours_order').execute();

  await db.schema
    .createTable('schedule_exceptions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) =>
      c.notNull().references('schedules.company_id').onDelete('cascade'),
    )
    .addColumn('date', 'date', (c) => c.notNull())
    .addColumn('label', 'text')
    .addUniqueConstraint('schedule_exceptions_one_per_date', ['company_id', 'date'])
    .execute();

  await db.schema
    .createTable('schedule_exception_hours')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('exception_id', 'integer', (c) =>
      c.notNull().references('schedule_exceptions.id').onDelete('cascade'),
    )
    .addColumn('opens', 'time', (c) => c.notNull())
    .addColumn('closes', 'time', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('schedule_exception_hours_exception')
    .on('schedule_exception_hours')
    .column('exception_id')
    .execute();

  const comments: Record<string, string> = {
    'schedule_hours.closes':
      'Read as `HH:MM:SS`. At or before `opens`: the opening runs into the next day (00:00–00:00 is the whole day).',
    'schedule_exceptions.date':
      "A date of the company's time zone that keeps its own openings instead of its weekday's.",
    'schedule_exceptions.label': 'What the date is, shown to guests (`Christmas Eve`); optional.',
    'schedule_exception_hours.exception_id':
      'The date this opening belongs to; a date without any is closed all day.',
    'schedule_exception_hours.opens': 'Read as `HH:MM:SS`.',
    'schedule_exception_hours.closes':
      'Read as `HH:MM:SS`. At or before `opens`: the opening runs into the next day.',
  };
  for (const [column, text] of Object.entries(comments)) {
    await sql`comment on column ${sql.ref(column)} is ${sql.lit(text)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('schedule_exception_hours').execute();
  await db.schema.dropTable('schedule_exceptions').execute();
  // Nights have no place in the old timetable.
  await sql`delete from schedule_hours where closes <= opens`.execute(db);
  await db.schema
    .alterTable('schedule_hours')
    .addCheckConstraint('schedule_hours_order', sql`opens < closes`)
    .execute();
  await sql`comment on column schedule_hours.closes is 'Read as \`HH:MM:SS\`.'`.execute(db);
}
