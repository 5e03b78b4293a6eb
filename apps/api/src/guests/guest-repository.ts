import type { Kysely } from 'kysely';
import { fingerprintOf } from '@frontdesk/protocol';
import type { Database, GuestRow } from '../db/schema.ts';
import { HttpError } from '../plugins/errors.ts';
import { guestJabberUsername } from '../xmpp/addresses.ts';

/**
 * Registers `username` with the company, or finds it registered already: registration is
 * idempotent (spec §7 expects 201 each time the same browser comes back).
 */
export async function registerGuest(
  db: Kysely<Database>,
  companyId: number,
  username: string,
): Promise<GuestRow> {
  await db
    .insertInto('guests')
    .values({
      company_id: companyId,
      username,
      fingerprint: fingerprintOf(username),
      jabberusername: guestJabberUsername(companyId, username),
    })
    .onConflict((oc) => oc.columns(['company_id', 'username']).doNothing())
    .execute();
  return requireGuest(db, companyId, username);
}

export async function findGuest(
  db: Kysely<Database>,
  companyId: number,
  username: string,
): Promise<GuestRow | undefined> {
  return db
    .selectFrom('guests')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('username', '=', username)
    .executeTakeFirst();
}

/** The guest, or 404 naming the username. */
export async function requireGuest(
  db: Kysely<Database>,
  companyId: number,
  username: string,
): Promise<GuestRow> {
  const guest = await findGuest(db, companyId, username);
  if (!guest) {
    throw new HttpError(
      404,
      'guest_not_found',
      `No guest ${username} is registered with company ${companyId}.`,
    );
  }
  return guest;
}

/** Whether the company's block list holds the guest's fingerprint (spec §6). */
export async function isBlocked(db: Kysely<Database>, guest: GuestRow): Promise<boolean> {
  const block = await db
    .selectFrom('guest_blocks')
    .select('fingerprint')
    .where('company_id', '=', guest.company_id)
    .where('fingerprint', '=', guest.fingerprint)
    .executeTakeFirst();
  return block !== undefined;
}

export async function recordGuestLogin(db: Kysely<Database>, guestId: number, at: Date) {
  await db.updateTable('guests').set({ last_login_at: at }).where('id', '=', guestId).execute();
}
