import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  allowMessagesFrom,
  createCallRoom,
  forbidMessagesFrom,
  addMembers,
  notifyUsers,
  removeRoom,
  type RoomAdmin,
} from '@frontdesk/chat/server';
import {
  callRoomJid,
  CALLS_CHANGED_NOTICE,
  parseCallId,
  TEAM_CHANGED_NOTICE,
} from '@frontdesk/protocol';
import type { CallReportRow, Database } from '../db/schema.ts';
import { guestJabberUsername, staffJabberUsername, userJid } from './addresses.ts';

/**
 * Each call's chat room on the XMPP server (decision 0010): made when the call is let through,
 * for its guest and the company's agents only, and removed when the call ends. The agent who
 * takes the call is put in the guest's way (the server refuses a guest's messages to anyone
 * else), and every agent of the company hears that the waiting calls changed.
 *
 * Failures are logged, not thrown: the call has been recorded either way, and a guest whose room
 * is missing is told so by the chat server when it joins (stage `failed`).
 */
export class CallChats {
  private readonly admin: RoomAdmin;

  constructor(
    admin: RoomAdmin,
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
  ) {
    this.admin = admin;
  }

  /** The room's localpart: its JID without the MUC service. */
  private roomName(call: CallReportRow): string {
    return callRoomJid(call.call_id, this.admin.domain).split('@')[0] as string;
  }

  /** The guest's jabber username: a call id starts with its guest's public username. */
  private guestOf(call: CallReportRow): string {
    const username = parseCallId(call.call_id)?.username;
    if (!username) throw new Error(`not a call id: ${call.call_id}`);
    return guestJabberUsername(call.company_id, username);
  }

  /** Every active agent and admin of the company (or its admins only), as bare JIDs. */
  private async staffOf(companyId: number, role?: 'admin'): Promise<string[]> {
    const staff = await this.db
      .selectFrom('staff')
      .select('id')
      .where('company_id', '=', companyId)
      .where('active', '=', true)
      .$if(role !== undefined, (query) => query.where('role', '=', 'admin'))
      .execute();
    return staff.map(({ id }) => userJid(staffJabberUsername(id), this.admin.domain));
  }

  /** A call was let through (hold-call): its room, then the agents told. */
  async open(call: CallReportRow): Promise<void> {
    await this.replace([], call);
  }

  /**
   * An agent took the call: it is a member of the room (an agent added since the room was made
   * too) and the guest may write to it. The other agents' queues drop the call.
   */
  async admitAgent(call: CallReportRow, staffId: number): Promise<void> {
    const agent = staffJabberUsername(staffId);
    try {
      await Promise.all([
        addMembers(this.admin, this.roomName(call), [userJid(agent, this.admin.domain)]),
        allowMessagesFrom(this.admin, agent, this.guestOf(call)),
      ]);
      this.tell(await this.staffOf(call.company_id));
    } catch (error) {
      this.log.error({ err: error, callId: call.call_id }, 'the agent was not let into the chat');
    }
  }

  /** The call ended: the room goes (whoever is in it is told), the guest's way to the agent too. */
  async close(call: CallReportRow): Promise<void> {
    await this.replace([call], undefined);
  }

  /**
   * The guest's calls `ended` ended and its call `next` was let through (call-report/add): the
   * old rooms go and the new one is made side by side, with the company's staff asked meanwhile
   * (each a round trip of its own). The new room's members are set only once the old calls'
   * guest is off their agents' rosters: an agent's claim of the new call (a reload during a
   * call) puts the guest back on it, and a removal landing after that would leave the guest
   * unable to write to them. The agents are then told once of both.
   */
  async replace(ended: readonly CallReportRow[], next: CallReportRow | undefined): Promise<void> {
    const companyId = next?.company_id ?? ended[0]?.company_id;
    if (companyId === undefined) return;
    const staff = this.staffOf(companyId);
    const made =
      next &&
      createCallRoom(this.admin, { name: this.roomName(next), title: `Call ${next.call_id}` });
    // Settled before awaiting: a rejection must not go unhandled while the rooms are removed.
    void staff.catch(() => undefined);
    void made?.catch(() => undefined);
    await Promise.all(ended.map((call) => this.removeChat(call)));
    if (next) {
      try {
        await made;
        await addMembers(this.admin, this.roomName(next), [
          userJid(this.guestOf(next), this.admin.domain),
          ...(await staff),
        ]);
      } catch (error) {
        this.log.error({ err: error, callId: next.call_id }, 'the call’s chat room was not made');
      }
    }
    try {
      this.tell(await staff);
    } catch (error) {
      this.log.warn({ err: error, companyId }, 'the agents were not told that the calls changed');
    }
  }

  /** Removes an ended call's room and its guest's way to its agent; failures are logged. */
  private async removeChat(call: CallReportRow): Promise<void> {
    try {
      await Promise.all([
        removeRoom(this.admin, this.roomName(call)),
        call.agent_id === null
          ? undefined
          : forbidMessagesFrom(this.admin, staffJabberUsername(call.agent_id), this.guestOf(call)),
      ]);
    } catch (error) {
      this.log.warn({ err: error, callId: call.call_id }, 'the call’s chat room was not removed');
    }
  }

  /**
   * A member's availability changed, or they signed in or out: the admins' wallboards ask again
   * (agents' consoles do not show the team's states). Not awaited, as {@link tell}.
   */
  teamChanged(companyId: number): void {
    this.staffOf(companyId, 'admin')
      .then((admins) => notifyUsers(this.admin, admins, TEAM_CHANGED_NOTICE))
      .catch((error: unknown) =>
        this.log.warn({ err: error, companyId }, 'the admins were not told that the team changed'),
      );
  }

  /** Not awaited: the consoles ask for the list again, and a missed notice is caught up later. */
  private tell(staff: readonly string[]): void {
    notifyUsers(this.admin, staff, CALLS_CHANGED_NOTICE).catch((error: unknown) =>
      this.log.warn({ err: error }, 'the agents were not told that the calls changed'),
    );
  }
}
