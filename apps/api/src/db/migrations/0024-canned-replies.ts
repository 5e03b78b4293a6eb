import { sql, type Kysely } from 'kysely';

/**
 * Canned replies (issue 19 item 4): ready answers a company's admins keep for its agents' chats,
 * each found by a shortcut the agent types after `/`, unique within the company.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('canned_replies')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) =>
      c.notNull().references('companies.id').onDelete('cascade'),
    )
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('shortcut', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('canned_replies_shortcut', ['company_id', 'shortcut'])
    .execute();

  const comments: Record<string, string> = {
    'canned_replies.id': 'What the admin names the reply by (edit, delete).',
    'canned_replies.company_id':
      'The company whose agents insert the reply; only its admins change it.',
    'canned_replies.title': 'What the reply is found by in the agent’s picker.',
    'canned_replies.shortcut':
      'What an agent types after `/` to insert it: lower-case letters, digits and dashes, unique within the company.',
    'canned_replies.text': 'The text inserted into the message box (at most a chat message long).',
    'canned_replies.updated_at': 'When the reply was added or last changed.',
  };
  for (const [column, text] of Object.entries(comments)) {
    await sql`comment on column ${sql.ref(column)} is ${sql.lit(text)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('canned_replies').execute();
}
