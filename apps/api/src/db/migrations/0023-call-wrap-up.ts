import { sql, type Kysely } from 'kysely';

/**
 * Wrap-up after a call (issue 19 item 3): the outcome codes a company's admins keep, in the
 * order agents see them, and on each call the agent's outcome, follow-up flag and note.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('call_outcome_codes')
    .addColumn('company_id', 'integer', (c) =>
      c.notNull().references('companies.id').onDelete('cascade'),
    )
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('call_outcome_codes_pkey', ['company_id', 'code'])
    .execute();
  await db.schema
    .alterTable('call_reports')
    .addColumn('outcome_code', 'text')
    .addColumn('follow_up', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('follow_up_note', 'text')
    .addColumn('wrapped_up_at', 'timestamptz')
    .execute();

  const comments: Record<string, string> = {
    'call_outcome_codes.company_id':
      'The company whose agents choose the outcome; only its admins change the list.',
    'call_outcome_codes.code':
      'How reports name the outcome: lower-case letters, digits and dashes, unique within the company.',
    'call_outcome_codes.label': 'What the agent sees in the wrap-up.',
    'call_outcome_codes.position': "The code's place in the agent's list (0 first).",
    'call_reports.outcome_code':
      "The outcome the agent chose in its wrap-up, one of the company's `call_outcome_codes` when chosen (kept if the code is later removed).",
    'call_reports.follow_up': 'The agent marked the call for a follow-up in its wrap-up.',
    'call_reports.follow_up_note': "What the follow-up is about, in the agent's words.",
    'call_reports.wrapped_up_at':
      'When the agent last saved the call’s wrap-up; `null`: not wrapped up.',
  };
  for (const [column, text] of Object.entries(comments)) {
    await sql`comment on column ${sql.ref(column)} is ${sql.lit(text)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('call_reports')
    .dropColumn('outcome_code')
    .dropColumn('follow_up')
    .dropColumn('follow_up_note')
    .dropColumn('wrapped_up_at')
    .execute();
  await db.schema.dropTable('call_outcome_codes').execute();
}
