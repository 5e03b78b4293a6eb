import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { connectedUsers, disconnectUser, type RoomAdmin } from '@frontdesk/chat/server';
import type { Database } from '../db/schema.ts';
import { staffIdOf, staffJabberUsername } from './addresses.ts';

/** How often connected staff are checked against their sign-ins: "within a minute" (issue 13). */
export const STAFF_CHAT_SWEEP_MS = 30_000;

/**
 * SECURITY: a member of staff's chat lives no longer than its sign-in. An XMPP session, once
 * open, is not asked for its token again, so a sign-out, a deactivation or an expired session
 * would leave it open: the API ends it — at once on sign-out when no other sign-in of the member
 * is live, and on a sweep every {@link STAFF_CHAT_SWEEP_MS} for everyone else the XMPP server
 * has connected (a deactivation made in the database, a session past its end; one API process
 * sweeps for all, decision 0038). A change of role
 * leaves the chat as it is: agents and admins have the same rights there.
 *
 * Failures are logged, not thrown: the sign-out has happened either way, and the next sweep
 * tries again.
 */
export class StaffChatSessions {
  constructor(
    private readonly admin: RoomAdmin,
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Of `staffIds`, those with a live sign-in: a session neither revoked nor ended, active. */
  private async signedIn(staffIds: readonly number[]): Promise<Set<number>> {
    if (staffIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('sessions')
      .innerJoin('staff', 'staff.id', 'sessions.staff_id')
      .select('staff.id')
      .distinct()
      .where('staff.id', 'in', staffIds)
      .where('staff.active', '=', true)
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', new Date())
      .execute();
    return new Set(rows.map((row) => row.id));
  }

  private async disconnect(staffIds: readonly number[]): Promise<void> {
    await Promise.all(staffIds.map((id) => disconnectUser(this.admin, staffJabberUsername(id))));
  }

  /** After a sign-out: the member's chat ends unless another of its sign-ins is live. */
  async endIfSignedOut(staffId: number): Promise<void> {
    try {
      if (!(await this.signedIn([staffId])).has(staffId)) await this.disconnect([staffId]);
    } catch (error) {
      this.log.warn({ err: error, staffId }, 'the signed-out member’s chat was not ended');
    }
  }

  /** Disconnects every connected member of staff without a live sign-in; answers their ids. */
  async sweep(): Promise<number[]> {
    const connected = (await connectedUsers(this.admin))
      .map(staffIdOf)
      .filter((id) => id !== undefined);
    const live = await this.signedIn(connected);
    const stale = connected.filter((id) => !live.has(id));
    await this.disconnect(stale);
    return stale;
  }
}
