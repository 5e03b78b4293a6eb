import { sql, type Kysely } from 'kysely';

/**
 * Retention (issue 20 item 2, decision 0031): how long each company keeps each kind of personal
 * data, what each nightly run deleted (counts only), and the marks a kept row gets when what it
 * pointed at was deleted (a recording's file, a guest's identity).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const days = (column: string, fallback: number) =>
    sql.raw(`${column} integer not null default ${fallback} check (${column} between 1 and 3650)`);
  await sql`
    create table company_retention (
      company_id integer primary key references companies (id) on delete cascade,
      ${days('recordings_days', 90)},
      ${days('uploads_days', 90)},
      ${days('welcome_answers_days', 365)},
      ${days('rating_answers_days', 365)},
      ${days('call_bugs_days', 90)},
      ${days('guests_days', 365)},
      ${days('audit_entries_days', 730)},
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table retention_runs (
      id bigserial primary key,
      run_at timestamptz not null,
      company_id integer references companies (id) on delete cascade,
      kind text not null,
      deleted integer not null check (deleted >= 0)
    )`.execute(db);
  await sql`create index retention_runs_company on retention_runs (company_id, run_at desc)`.execute(
    db,
  );

  await sql`alter table call_recordings add column expired_at timestamptz`.execute(db);
  await sql`alter table guests add column identity_removed_at timestamptz`.execute(db);

  const comments: Record<string, string> = {
    'company_retention.company_id':
      'The company whose periods these are; a company without a row keeps the defaults.',
    'company_retention.recordings_days':
      'Days a call recording (merged film and Janus parts) is kept after it was made.',
    'company_retention.uploads_days': 'Days a file sent in a call is kept.',
    'company_retention.welcome_answers_days': 'Days the welcome form’s answers are kept.',
    'company_retention.rating_answers_days':
      'Days the rating form’s answers are kept (the star rating stays on the call).',
    'company_retention.call_bugs_days': 'Days a call-bug report and its browser log are kept.',
    'company_retention.guests_days':
      'Days without activity after which a guest’s identity is removed (decision 0031).',
    'company_retention.audit_entries_days': 'Days an audit log entry is kept.',
    'company_retention.updated_at': 'When an admin last changed the periods.',
    'retention_runs.run_at': 'The time the run deleted up to (its `now`).',
    'retention_runs.company_id':
      'The company whose data was deleted; null for the instance’s own (logs, error reports).',
    'retention_runs.kind': 'The kind of data (decision 0031), as the API names it.',
    'retention_runs.deleted': 'How many were deleted: counts only, never what.',
    'call_recordings.expired_at':
      'When the retention run deleted the film (the row stays so the reports still count it).',
    'guests.identity_removed_at':
      'When the retention run removed the identity of a guest who had calls (the row stays for them).',
  };
  for (const [column, text] of Object.entries(comments)) {
    await sql`comment on column ${sql.ref(column)} is ${sql.lit(text)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table guests drop column identity_removed_at`.execute(db);
  await sql`alter table call_recordings drop column expired_at`.execute(db);
  await db.schema.dropTable('retention_runs').execute();
  await db.schema.dropTable('company_retention').execute();
}
