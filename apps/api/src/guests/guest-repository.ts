import type { Kysely } from 'kysely';
import { fingerprintOf } from '@frontdesk/protocol';
import type { Database, GuestRow } from '../db/schema.ts';
import { NotFoundError } from '../domain-errors.ts';
import { guestJabberUsername } from '../xmpp/addresses.ts';
import {
  credentialHash,
  keyedFingerprint,
  newGuestCredential,
  newGuestUsername,
} from './guest-identity.ts';

/**
 * Registers a new guest of the company for the browser named `browserUsername` (spec §1) and
 * answers it with the credential that only this answer ever carries (decision 0006). Every
 * registration makes a new guest: a browser that comes back logs in with the credential it kept,
 * and the fingerprint, kept here as its HMAC under `fingerprintKey` (decision 0033), still meets
 * the company's block list.
 */
export async function registerGuest(
  db: Kysely<Database>,
  companyId: number,
  browserUsername: string,
  fingerprintKey: string,
  /** When the guest accepted the company's consent text (decision 0030); `null`: not asked. */
  consentGivenAt: Date | null = null,
): Promise<{ guest: GuestRow; credential: string }> {
  const username = newGuestUsername();
  const credential = newGuestCredential();
  const guest = await db
    .insertInto('guests')
    .values({
      company_id: companyId,
      username,
      fingerprint: keyedFingerprint(fingerprintKey, fingerprintOf(browserUsername)),
      jabberusername: guestJabberUsername(companyId, username),
      credential_hash: credentialHash(credential),
      consent_given_at: consentGivenAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { guest, credential };
}

/** The company's guest that `credential` belongs to; `undefined` for anything else. */
export async function findGuestByCredential(
  db: Kysely<Database>,
  companyId: number,
  credential: string,
): Promise<GuestRow | undefined> {
  return db
    .selectFrom('guests')
    .selectAll()
    .where('credential_hash', '=', credentialHash(credential))
    .where('company_id', '=', companyId)
    .executeTakeFirst();
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
    throw new NotFoundError(
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
