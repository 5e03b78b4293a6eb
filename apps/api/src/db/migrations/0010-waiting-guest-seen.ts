import type { Kysely } from 'kysely';

/**
 * When the guest of a waiting call last asked for its place (decision 0010): the queue counts
 * only calls whose guest is still there, as no room shows the guests to each other any more.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('call_reports').addColumn('guest_seen_at', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('call_reports').dropColumn('guest_seen_at').execute();
}
