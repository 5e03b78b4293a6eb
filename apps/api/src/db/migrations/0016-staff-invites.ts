import { sql, type Kysely } from 'kysely';

/**
 * Staff administration and the platform operator (issue 16, decision 0017). An invited or reset
 * member signs in with a one-time password that only lets them choose their own, and lapses after
 * a week. Platform operators, who create companies, are kept apart from every company's staff:
 * their own table and their own sessions, whose tokens no company route accepts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('staff')
    .addColumn('one_time_password_expires_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('operators')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) =>
      c
        .notNull()
        .unique()
        .check(sql`email = lower(email)`),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('operator_sessions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('operator_id', 'integer', (c) =>
      c.notNull().references('operators.id').onDelete('cascade'),
    )
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  const comments: Record<string, string> = {
    'staff.one_time_password_expires_at':
      'Set while `password_hash` is a one-time password (invite or reset): it signs in to nothing but choosing a new password, and not after this time. `null` for a password the member chose.',
    'operators.email':
      'The platform operator’s sign-in, lower-cased; created only by `npm run create-operator`.',
    'operators.name': 'How the audit log and the operator’s console name the operator.',
    'operators.password_hash':
      'scrypt hash (auth/password.ts); the password is shown once by the command.',
    'operators.active':
      'An inactive operator cannot sign in, and its sessions stop at the next request.',
    'operator_sessions.token_hash':
      'SHA-256 of the operator’s bearer token (opaque, not a JWT): only operator routes look it up.',
    'operator_sessions.expires_at': 'When the sign-in ends (8 hours after it began).',
    'operator_sessions.revoked_at': 'Set by sign-out; the token stops at once.',
  };
  for (const [column, text] of Object.entries(comments)) {
    await sql`comment on column ${sql.ref(column)} is ${sql.lit(text)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('operator_sessions').execute();
  await db.schema.dropTable('operators').execute();
  await db.schema.alterTable('staff').dropColumn('one_time_password_expires_at').execute();
}
