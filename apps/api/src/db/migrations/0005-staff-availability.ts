import { sql, type Kysely } from 'kysely';

/**
 * Round robin (docs/protocol.md step 3): each agent's availability as its console last reported
 * it, and when, so the API offers calls only to agents who are there and free.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('staff')
    .addColumn('availability', 'text', (c) =>
      c
        .notNull()
        .defaultTo('away')
        .check(sql`availability in ('available', 'away', 'busy')`),
    )
    .addColumn('availability_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('staff')
    .dropColumn('availability')
    .dropColumn('availability_at')
    .execute();
}
