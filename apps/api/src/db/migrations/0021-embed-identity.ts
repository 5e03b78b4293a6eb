import { sql, type Kysely } from 'kysely';

/**
 * The embed's signed identity (issue 18 item 6, decision 0021): each company may have a secret
 * that its own site's server signs welcome-form prefills with, and a welcome-form submission
 * keeps which of its answers such a signature vouched for, so agents can tell them apart.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('companies')
    .addColumn('embed_secret', 'text')
    .addColumn('embed_secret_rotated_at', 'timestamptz')
    .execute();
  await db.schema
    .alterTable('form_submissions')
    .addColumn('verified_fields', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .execute();

  const comments: Record<string, string> = {
    'companies.embed_secret':
      "SECURITY: the HMAC-SHA256 key of the company's identity tokens (decision 0021); shown only to the company's admins. `null`: none made yet, so no token verifies.",
    'companies.embed_secret_rotated_at': 'When the admin last made a new embed secret.',
    'form_submissions.verified_fields':
      "The answers' names that a valid identity token from the company's site vouched for, each sent unchanged.",
  };
  for (const [column, text] of Object.entries(comments)) {
    await sql`comment on column ${sql.ref(column)} is ${sql.lit(text)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('form_submissions').dropColumn('verified_fields').execute();
  await db.schema
    .alterTable('companies')
    .dropColumn('embed_secret')
    .dropColumn('embed_secret_rotated_at')
    .execute();
}
