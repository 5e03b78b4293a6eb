import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { roomOccupants, type RoomAdmin } from '@frontdesk/chat/server';
import { callRoomJid, PEER_GONE_GRACE_MS } from '@frontdesk/protocol';
import type { CallReportRow, Database } from '../db/schema.ts';
import { staffJabberUsername } from '../xmpp/addresses.ts';
import { liveCallsSince } from './call-coordination.ts';
import { endReport } from './call-reports.ts';

/**
 * Whether an absence that began at `absentSince` has lasted the grace, by the database's clock:
 * the sweeps of every replica, whose clocks may differ, write and read it by the same one.
 */
const graceOver = (absentSince: string) =>
  sql<boolean>`coalesce(${sql.ref(absentSince)} <= now() - ${PEER_GONE_GRACE_MS} * interval '1 millisecond', false)`;

/** How often answered calls are checked for a side still in their chat room. */
export const CALL_PRESENCE_SWEEP_MS = 5_000;

/** What an ended call gives back: its media room, its chat room, its recording's merge. */
export type ReleaseCall = (ended: CallReportRow) => Promise<void>;

/** {@link ReleaseCall} as the API does it, for the end route and the sweep alike. */
export async function releaseCall(
  app: Pick<FastifyInstance, 'callRooms' | 'callChats' | 'recordingJobs'>,
  ended: CallReportRow,
): Promise<void> {
  await Promise.all([app.callRooms.close(ended), app.callChats.close(ended)]);
  await app.recordingJobs.mergeAfterCall(ended);
}

/**
 * Ends the answered calls that both sides left without hanging up (decision 0037). Each side
 * ends a call whose other side went away — the agent's console after 2 s, the guest's page after
 * the agent's reload grace — so a call outlives its pages only when both went at once: a guest
 * and an agent who closed their tabs, a browser that crashed with both open. Every
 * {@link CALL_PRESENCE_SWEEP_MS} the API asks the chat server who is in each answered call's room
 * (a page leaves it when its connection closes); a call with neither its guest nor its agent there
 * for {@link PEER_GONE_GRACE_MS} — the grace a reloading console gets, so a reload still rejoins
 * (decision 0027) — is ended `absence`, as the end route ends it.
 *
 * One API process sweeps for all (a cluster task, decision 0038). An absence is kept on the call
 * (`absent_since`), so its grace goes on when another process takes the sweep over; the end is
 * one conditional statement, so a call ended meanwhile by a side is not released twice. A room
 * the chat server cannot tell about (unreachable, or lost) ends nothing.
 */
export class CallPresence {
  constructor(
    private readonly admin: RoomAdmin,
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    private readonly release: ReleaseCall,
  ) {}

  /**
   * The answered calls that have not ended, with their guest's jabber username and whether an
   * absence found earlier has outlasted the grace.
   */
  private answeredCalls() {
    return this.db
      .selectFrom('call_reports')
      .innerJoin('guests', 'guests.id', 'call_reports.guest_id')
      .selectAll('call_reports')
      .select('guests.jabberusername as guest_jabber_username')
      .select(graceOver('call_reports.absent_since').as('grace_over'))
      .where('call_reports.status', '=', 'ok')
      .where('call_reports.ended_at', 'is', null)
      .where('call_reports.agent_id', 'is not', null)
      .where('call_reports.created_at', '>', liveCallsSince())
      .execute();
  }

  /** Whether the call's guest or agent is in its chat room; `undefined` when unknown. */
  private async anySidePresent(
    call: CallReportRow & { guest_jabber_username: string },
  ): Promise<boolean | undefined> {
    const room = callRoomJid(call.call_id, this.admin.domain).split('@')[0] as string;
    const occupants = await roomOccupants(this.admin, room);
    if (occupants === undefined) return undefined;
    const agent = call.agent_id === null ? undefined : staffJabberUsername(call.agent_id);
    return occupants.some((user) => user === call.guest_jabber_username || user === agent);
  }

  /**
   * Keeps the call's absence as beginning now, unless an earlier sweep (of any process) found it
   * already; whether its grace is over.
   */
  private async absenceFound(id: number): Promise<boolean> {
    const row = await this.db
      .updateTable('call_reports')
      .set({ absent_since: sql<Date>`coalesce(absent_since, now())` })
      .where('id', '=', id)
      .returning(graceOver('absent_since').as('grace_over'))
      .executeTakeFirst();
    return row?.grace_over === true;
  }

  /** One look at every answered call; answers the calls it ended. */
  async sweep(): Promise<CallReportRow[]> {
    const calls = await this.answeredCalls();
    const ended = await Promise.all(
      calls.map(async (call) => {
        const present = await this.anySidePresent(call).catch((error: unknown) => {
          this.log.warn({ err: error, callId: call.call_id }, 'the call’s room was not asked');
          return undefined;
        });
        if (present !== false) {
          // Someone is there, or nobody can tell: the grace starts again from the next absence.
          if (call.absent_since !== null) {
            await this.db
              .updateTable('call_reports')
              .set({ absent_since: null })
              .where('id', '=', call.id)
              .execute();
          }
          return undefined;
        }
        const over =
          call.absent_since === null ? await this.absenceFound(call.id) : call.grace_over;
        if (!over) return undefined;
        const row = await endReport(this.db, call.id, 'absence');
        if (row) {
          this.log.info({ callId: call.call_id }, 'both sides had left the call: ended');
          await this.release(row);
        }
        return row;
      }),
    );
    return ended.filter((row) => row !== undefined);
  }
}
