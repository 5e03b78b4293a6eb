import { sql, type Kysely } from 'kysely';

/**
 * Staff logins as sessions (issue 13 "Sessions"): each login opens one, which sign-out revokes;
 * its refresh token is kept as its SHA-256 and replaced at each refresh. Staff can be
 * deactivated; their sessions then stop at the next request. (Guests log in again with their
 * credential instead, so they keep no session.)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('refresh_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .alterTable('staff')
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('staff').dropColumn('active').execute();
  await db.schema.dropTable('sessions').execute();
}
