import { sql, type Kysely } from 'kysely';
import { newGuestUsername } from '../../guests/guest-identity.ts';

/**
 * Decision 0006: a guest proves who it is with a secret the API made, kept as its SHA-256 digest;
 * its username becomes a public name the API made. Guests registered before have no secret and
 * their usernames came from the browser's fingerprint: they get new public names (their calls'
 * ids keep the old text, as history only) and register again to log in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('guests')
    .addColumn('credential_hash', 'text', (c) => c.unique())
    .execute();
  const guests = await sql<{ id: number }>`select id from guests`.execute(db);
  for (const { id } of guests.rows) {
    await sql`update guests set username = ${newGuestUsername()}, jabberusername = ${`legacy-${id}`}
      where id = ${id}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('guests').dropColumn('credential_hash').execute();
}
