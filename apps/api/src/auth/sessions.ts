import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { StaffRole } from '@frontdesk/protocol';
import type { Database } from '../db/schema.ts';

/**
 * How long one login lasts: a staff login's refresh token, the Janus token and a guest's XMPP
 * token. Janus cannot swap the token of a live session and a guest does not renew its XMPP
 * token, so they must outlast the longest call plus the rating afterwards: 12 hours.
 */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

const digest = (token: string) => createHash('sha256').update(token).digest('hex');
const newRefreshToken = () => randomBytes(32).toString('base64url');

/** Opens a member of staff's session with its first refresh token. */
export async function openStaffSession(db: Kysely<Database>, staffId: number, now: Date) {
  const refreshToken = newRefreshToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  const { id } = await db
    .insertInto('sessions')
    .values({ staff_id: staffId, refresh_hash: digest(refreshToken), expires_at: expiresAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { sessionId: id, refreshToken, expiresAt };
}

/**
 * Exchanges a refresh token for the next one. SECURITY: one statement replaces the digest, so a
 * token works once (two refreshes racing with one token: one wins), and only while the session is
 * neither revoked nor expired and its member is still active. `undefined` otherwise.
 */
export async function refreshStaffSession(db: Kysely<Database>, refreshToken: string) {
  const next = newRefreshToken();
  const session = await db
    .updateTable('sessions')
    .set({ refresh_hash: digest(next) })
    .from('staff')
    .whereRef('staff.id', '=', 'sessions.staff_id')
    .where('sessions.refresh_hash', '=', digest(refreshToken))
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', new Date())
    .where('staff.active', '=', true)
    .returning([
      'sessions.id as sessionId',
      'staff.id as staffId',
      'staff.role as role',
      'staff.company_id as companyId',
      'sessions.expires_at as expiresAt',
    ])
    .executeTakeFirst();
  return session && { ...session, refreshToken: next };
}

/** Sign-out: the session's tokens stop working (idempotent). */
export async function revokeSession(db: Kysely<Database>, sessionId: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: new Date() })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * Ends every sign-in of a member (deactivation, a password reset or change): their access and
 * refresh tokens stop at the next request, and a later reactivation brings none of them back.
 */
export async function revokeStaffSessions(db: Kysely<Database>, staffId: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: new Date() })
    .where('staff_id', '=', staffId)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * Whether a staff access token still speaks for its member: the session is live, the member
 * active and still in the role the token names (a role change ends what the old role allowed).
 */
export async function staffSessionIsLive(
  db: Kysely<Database>,
  principal: { sessionId: number; staffId: number; role: StaffRole },
): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('staff', 'staff.id', 'sessions.staff_id')
    .select('staff.id')
    .where('sessions.id', '=', principal.sessionId)
    .where('sessions.staff_id', '=', principal.staffId)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', new Date())
    .where('staff.active', '=', true)
    .where('staff.role', '=', principal.role)
    .executeTakeFirst();
  return row !== undefined;
}
