import type { Kysely } from 'kysely';

/**
 * When the guest's position last passed its company's geofence check (issue 13): a call of a
 * company that asks for the location is let through only after a recent pass, so skipping the
 * check in the browser gains nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('guests').addColumn('inside_zone_at', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('guests').dropColumn('inside_zone_at').execute();
}
