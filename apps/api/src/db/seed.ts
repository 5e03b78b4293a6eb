import { sql, type Kysely } from 'kysely';
import { DEFAULT_COMPANY_ID } from '@frontdesk/protocol';
import type { Database } from './schema.ts';

/** Inserts the demo company (id 5) and its people once; later runs leave existing rows alone. */
export async function seedDemo(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('companies')
      .values({ id: DEFAULT_COMPANY_ID, name: 'Frontdesk Demo', activated: true })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    // Explicit ids leave the serial behind; move it past them so new companies never collide.
    await sql`select setval(pg_get_serial_sequence('companies', 'id'), (select max(id) from companies))`.execute(
      trx,
    );
  });
}
