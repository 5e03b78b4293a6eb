import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { roomOccupants, type RoomAdmin } from '@frontdesk/chat/server';
import { callRoomJid, PEER_GONE_GRACE_MS } from '@frontdesk/protocol';
import type { CallReportRow, Database } from '../db/schema.ts';
import { staffJabberUsername } from '../xmpp/addresses.ts';
import { liveCallsSince } from './call-coordination.ts';
import { endReport } from './call-reports.ts';

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
 * Absences are kept in memory: a restarted API starts their grace again. Every replica sweeps;
 * the end is one conditional statement, so only the first releases the call. A room the chat
 * server cannot tell about (unreachable, or lost) ends nothing.
 */
export class CallPresence {
  private timer: NodeJS.Timeout | undefined;
  private sweeping = false;
  /** Report id → when the sweep first found nobody in the call's room. */
  private readonly absentSince = new Map<number, number>();

  constructor(
    private readonly admin: RoomAdmin,
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    private readonly release: ReleaseCall,
  ) {}

  /** The answered calls that have not ended, with their guest's jabber username. */
  private answeredCalls(now: number) {
    return this.db
      .selectFrom('call_reports')
      .innerJoin('guests', 'guests.id', 'call_reports.guest_id')
      .selectAll('call_reports')
      .select('guests.jabberusername as guest_jabber_username')
      .where('call_reports.status', '=', 'ok')
      .where('call_reports.ended_at', 'is', null)
      .where('call_reports.agent_id', 'is not', null)
      .where('call_reports.created_at', '>', liveCallsSince(now))
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

  /** One look at every answered call; answers the calls it ended. */
  async sweep(now = Date.now()): Promise<CallReportRow[]> {
    const calls = await this.answeredCalls(now);
    const live = new Set(calls.map((call) => call.id));
    for (const id of this.absentSince.keys()) if (!live.has(id)) this.absentSince.delete(id);
    const ended = await Promise.all(
      calls.map(async (call) => {
        const present = await this.anySidePresent(call).catch((error: unknown) => {
          this.log.warn({ err: error, callId: call.call_id }, 'the call’s room was not asked');
          return undefined;
        });
        if (present !== false) {
          // Someone is there, or nobody can tell: the grace starts again from the next absence.
          this.absentSince.delete(call.id);
          return undefined;
        }
        const since = this.absentSince.get(call.id) ?? now;
        this.absentSince.set(call.id, since);
        if (now - since < PEER_GONE_GRACE_MS) return undefined;
        this.absentSince.delete(call.id);
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

  /** Sweeps every `intervalMs` until {@link stop}. */
  start(intervalMs = CALL_PRESENCE_SWEEP_MS): void {
    this.timer ??= setInterval(() => {
      // A sweep that outlasts the interval (a slow chat server) is not joined by another.
      if (this.sweeping) return;
      this.sweeping = true;
      this.sweep()
        .catch((error: unknown) =>
          this.log.warn({ err: error }, 'answered calls were not checked for their sides'),
        )
        .finally(() => {
          this.sweeping = false;
        });
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
