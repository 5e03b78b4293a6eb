import { sql, type Kysely } from 'kysely';
import {
  companySettingsSchema,
  type CallListQuery,
  type CallSide,
  type CallState,
  type CallSummary,
  type CompanySettings,
  QUEUE_POLL_MS,
  type ClaimCallBody,
  type ClaimedCall,
  type Queue,
  type RoomAccess,
  type TransferBody,
} from '@frontdesk/protocol';
import type { Principal, StaffPrincipal } from '../auth/access-token.ts';
import { SESSION_TTL_MS } from '../auth/sessions.ts';
import type { CallReportRow, Database } from '../db/schema.ts';
import { servingAgentsByCategory } from '../companies/categories-admin.ts';
import { requireCompany } from '../companies/company-repository.ts';
import { findGuest } from '../guests/guest-repository.ts';
import {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
} from '../domain-errors.ts';
import { staffIdOf, staffJabberUsername } from '../xmpp/addresses.ts';
import { assertCategoryOf, assertMayTouch, type ReportWithGuest } from './call-reports.ts';
import {
  recordOffers,
  recordTransferRequested,
  type OfferTurn,
  type TransferTarget,
} from './call-events.ts';
import type { RoomParticipant } from './call-rooms.ts';
import { offerableAgents, offerOf } from './round-robin.ts';
import { groupMembers } from '../staff/assignment-groups.ts';
import { availableStaffIds } from '../staff/staff-repository.ts';

function statusOf(call: CallReportRow): CallState['status'] {
  // A refused call (blocked, out of quota) never began: for both apps it is over.
  if (call.status !== 'ok') return 'ended';
  if (call.end_reason === 'abandoned') return 'abandoned';
  if (call.ended_at) return 'ended';
  return call.agent_id === null ? 'waiting' : 'answered';
}

/** What either side may know of a call (`GET /api/calls/:callId`, docs/protocol.md step 7). */
export function toCallState(
  call: CallReportRow,
  queue: Queue | null = null,
  agentName: string | null = null,
): CallState {
  return {
    callId: call.call_id,
    status: statusOf(call),
    callMethod: call.call_method,
    queue,
    agentJabberUsername: call.agent_id === null ? null : staffJabberUsername(call.agent_id),
    agentName,
    transfer:
      call.transfer_to_staff_id === null && call.transfer_to_category_id === null
        ? null
        : {
            toAgentJabberUsername:
              call.transfer_to_staff_id === null
                ? null
                : staffJabberUsername(call.transfer_to_staff_id),
            toCategoryId: call.transfer_to_category_id,
          },
  };
}

/**
 * A claimed call as the agent's console takes it: its guest and the room it enters (`null` for a
 * p2p call, which has none).
 */
export function toClaimedCall(call: ReportWithGuest, room: RoomAccess | null): ClaimedCall {
  return {
    callId: call.call_id,
    reportId: call.id,
    guestUsername: call.guest_username,
    guestJabberUsername: call.guest_jabberusername,
    categoryId: call.category_id,
    callType: call.call_type,
    callMethod: call.call_method,
    room,
    // Set by the claim that made `call` this agent's; the claim's own answer reads it back.
    answeredAt: (call.answered_at ?? new Date()).toISOString(),
  };
}

/** A call begun before this cannot still be live: its guest's tokens have expired. */
export const liveCallsSince = (now = Date.now()): Date => new Date(now - SESSION_TTL_MS);

/**
 * Whether a call is live as the calls' routes count it: let through, not ended, begun within a
 * session. A call refused at its start or left waiting has no end but is not live.
 */
export const isLiveCall = (call: {
  status: string;
  ended_at: Date | null;
  created_at: Date;
}): boolean => call.status === 'ok' && call.ended_at === null && call.created_at > liveCallsSince();

/** A waiting guest that has not asked for its place since this has left (closed its page). */
export const guestsAskingSince = (now = Date.now()): Date => new Date(now - 3 * QUEUE_POLL_MS);

/**
 * Where a waiting call stands among the calls waiting in its category, oldest first, counting the
 * calls whose guest still asks (`guestSeen`); `null` once it waits no more. The guest learns it
 * from here: it sees no other guest (decision 0010).
 */
export async function queueOf(db: Kysely<Database>, call: CallReportRow): Promise<Queue | null> {
  if (statusOf(call) !== 'waiting') return null;
  // A guest that stopped asking has left: its call no longer holds a place.
  const since = guestsAskingSince();
  const counts = await db
    .selectFrom('call_reports')
    .select([
      sql<string>`count(*)`.as('waiting'),
      sql<string>`count(*) filter (where id <= ${call.id})`.as('position'),
    ])
    .where('company_id', '=', call.company_id)
    .where('category_id', call.category_id === null ? 'is' : '=', call.category_id)
    .where('status', '=', 'ok')
    .where('ended_at', 'is', null)
    .where('agent_id', 'is', null)
    .where((eb) =>
      eb.or([
        eb('id', '=', call.id),
        eb(eb.fn.coalesce('guest_seen_at', 'created_at'), '>', since),
      ]),
    )
    .executeTakeFirstOrThrow();
  const position = Number(counts.position);
  return position > 0 ? { position, waiting: Number(counts.waiting) } : null;
}

/** The guest of a waiting call asked for its place: it is still there. */
export async function guestSeen(db: Kysely<Database>, call: CallReportRow): Promise<void> {
  if (statusOf(call) !== 'waiting') return;
  await db
    .updateTable('call_reports')
    .set({ guest_seen_at: sql<Date>`now()` })
    .where('id', '=', call.id)
    .execute();
}

/**
 * SECURITY: only the two sides of a call act on it: the guest who owns it and the agent who
 * claimed it. The rest of the company may read its state, never join or steer it.
 */
export function assertParticipant(principal: Principal, call: CallReportRow): void {
  assertMayTouch(principal, call);
  if (principal.role !== 'guest' && call.agent_id !== principal.staffId) {
    throw new ForbiddenError(
      'not_your_call',
      `Only the agent who took call ${call.call_id} may do this.`,
    );
  }
}

/**
 * SECURITY (decision 0045): who may have a p2p call's ICE servers, whose TURN credentials spend
 * the installation's relay: the call's own guest while it waits (to be ready) or is answered,
 * and the agent who claimed it while it is answered (403 for anyone else, as
 * {@link assertParticipant}); never for a call that has ended or was refused (409 `call_over`),
 * nor for a media-server call, whose room access carries its own (409 `media_server_call`).
 */
export function assertIceParty(principal: Principal, call: CallReportRow): void {
  assertParticipant(principal, call);
  // A live call waits or is answered: `ended_at` and `end_reason` are set together (the
  // call_reports_ended check).
  if (!isLiveCall(call)) {
    throw new ConflictError('call_over', `Call ${call.call_id} is over.`);
  }
  if (call.call_method !== 'p2p') {
    throw new ConflictError(
      'media_server_call',
      `Call ${call.call_id} goes through the media server: its room access gives its ICE servers.`,
    );
  }
}

/** Which side of a call a participant is: the guest, or the agent (an admin too) who took it. */
export function sideOf(principal: Principal): CallSide {
  return principal.role === 'guest' ? 'guest' : 'agent';
}

/** The name a participant's recording carries: the guest's username or the agent's nick. */
export function roomParticipant(principal: Principal): RoomParticipant {
  return principal.role === 'guest'
    ? { username: principal.username, role: 'guest' }
    : { username: staffJabberUsername(principal.staffId), role: 'agent' };
}

/**
 * The guest's call that was let through and has not ended (nor outlived a session: a guest who
 * vanished without ending its call has no live call a day later); `undefined` when none.
 */
export async function liveCallOf(
  db: Kysely<Database>,
  guestId: number,
): Promise<{ id: number } | undefined> {
  return db
    .selectFrom('call_reports')
    .select('id')
    .where('guest_id', '=', guestId)
    .where('status', '=', 'ok')
    .where('ended_at', 'is', null)
    .where('created_at', '>', liveCallsSince())
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The guest's latest live call of the category, claimed or not: older ones are left behind. */
const latestOpenCall = (db: Kysely<Database>, guestId: number, categoryId: number) =>
  db
    .selectFrom('call_reports')
    .select('id')
    .where('guest_id', '=', guestId)
    .where('category_id', '=', categoryId)
    .where('status', '=', 'ok')
    .where('ended_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1);

/**
 * `POST /api/calls/claim` (docs/protocol.md step 3): the agent takes the guest's open call. One
 * conditional UPDATE decides, so of two agents claiming at once exactly one wins; the other gets
 * 409 `already_claimed` naming the winner. Claiming again one's own call answers it again.
 */
export async function claimCall(
  db: Kysely<Database>,
  principal: StaffPrincipal,
  { guestUsername, categoryId }: ClaimCallBody,
): Promise<ReportWithGuest> {
  await assertCategoryOf(db, principal.companyId, categoryId, 'categoryId');
  // SECURITY: guests are looked up in the agent's own company only.
  const guest = await findGuest(db, principal.companyId, guestUsername);
  if (!guest) {
    throw new NotFoundError('no_open_call', `Guest ${guestUsername} is not waiting for a call.`);
  }
  const withGuest = (row: CallReportRow): ReportWithGuest => ({
    ...row,
    guest_username: guest.username,
    guest_jabberusername: guest.jabberusername,
  });
  const claimed = await db
    .updateTable('call_reports')
    .set({ agent_id: principal.staffId, answered_at: sql<Date>`now()` })
    .where('id', '=', latestOpenCall(db, guest.id, categoryId))
    .where('agent_id', 'is', null)
    .where('ended_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (claimed) return withGuest(claimed);

  const current = await db
    .selectFrom('call_reports')
    .leftJoin('staff', 'staff.id', 'call_reports.agent_id')
    .selectAll('call_reports')
    .select('staff.name as agent_name')
    .where('call_reports.id', '=', latestOpenCall(db, guest.id, categoryId))
    .executeTakeFirst();
  if (!current || current.agent_id === null) {
    throw new NotFoundError(
      'no_open_call',
      `Guest ${guestUsername} has no open call in category ${categoryId}.`,
    );
  }
  const { agent_name, ...row } = current;
  if (row.agent_id === principal.staffId) return withGuest(row);
  const taker = staffJabberUsername(current.agent_id);
  throw new ConflictError('already_claimed', `${agent_name ?? taker} has taken this call.`, {
    guestUsername: `was taken by ${taker}`,
  });
}

/**
 * `POST /api/calls/:callId/transfer`: records where the agent hands the guest (another agent
 * or a category of the company); the guest reads it from the call's state and moves with
 * `call-report/hold-call`. Naming a new target replaces the previous one.
 */
export async function transferCall(
  db: Kysely<Database>,
  principal: StaffPrincipal,
  call: CallReportRow,
  target: TransferBody,
): Promise<CallReportRow> {
  let destination: TransferTarget;
  if ('toCategoryId' in target) {
    await assertCategoryOf(db, principal.companyId, target.toCategoryId, 'toCategoryId');
    destination = { toCategoryId: target.toCategoryId };
  } else {
    const staffId = staffIdOf(target.toAgentJabberUsername);
    // SECURITY: only a colleague of the same company can receive the guest.
    const colleague =
      staffId === undefined || staffId === principal.staffId
        ? undefined
        : await db
            .selectFrom('staff')
            .select('id')
            .where('id', '=', staffId)
            .where('company_id', '=', principal.companyId)
            .executeTakeFirst();
    if (!colleague) {
      throw new InvalidInputError('unknown_agent', 'Transfer to another agent of your company.', {
        toAgentJabberUsername: 'is not another agent of the company',
      });
    }
    destination = { toStaffId: colleague.id };
  }
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('call_reports')
      .set({
        transfer_to_staff_id: 'toStaffId' in destination ? destination.toStaffId : null,
        transfer_to_category_id: 'toCategoryId' in destination ? destination.toCategoryId : null,
      })
      .where('id', '=', call.id)
      .where('ended_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw new ConflictError('call_ended', `Call ${call.call_id} has ended.`);
    // Reports count each request: naming a new target replaces the first, not the history.
    await recordTransferRequested(trx, updated, principal.staffId, destination);
    return updated;
  });
}

/** `PUT /api/calls/:callId/notes`: the agent's notes, also after the call (wrap-up). */
export async function saveNotes(
  db: Kysely<Database>,
  call: CallReportRow,
  notes: string,
): Promise<void> {
  await db.updateTable('call_reports').set({ notes }).where('id', '=', call.id).execute();
}

type RoundRobinAgents = {
  available: number[];
  serving: Map<number, number[]>;
  members: Map<string, number[]>;
};

const NO_ROTATION: RoundRobinAgents = { available: [], serving: new Map(), members: new Map() };

/**
 * The agents waiting calls rotate among (none when the company does not use round robin), who
 * serves each category that names its agents, and who belongs to each assignment group.
 */
async function roundRobinAgents(
  db: Kysely<Database>,
  companyId: number,
  settings: CompanySettings,
): Promise<RoundRobinAgents> {
  if (!settings.roundRobin) return NO_ROTATION;
  const [available, serving, members] = await Promise.all([
    availableStaffIds(db, companyId),
    servingAgentsByCategory(db, companyId),
    settings.assignments ? groupMembers(db, companyId) : new Map<string, number[]>(),
  ]);
  return { available, serving, members };
}

/**
 * The call's group as the console names it: `name` `null` once the company no longer lists it.
 * Offers favour the group's members only while the company uses `assignments` and lists it.
 */
function groupOf(settings: CompanySettings, groupId: string | null) {
  if (groupId === null) return { group: null, counts: false };
  const listed = settings.assignmentGroups.find((group) => group.id === groupId);
  return {
    group: { id: groupId, name: listed?.name ?? null },
    counts: settings.assignments && listed !== undefined,
  };
}

/**
 * `GET /api/calls`: the company's open calls, waiting or answered, oldest first, with what the
 * console shows beside each guest and, for waiting calls, whom round robin offers each to now
 * (turns of `offerMs`), recording each turn it shows once (`call_events`). A call older than a
 * login cannot still be live (its guest's tokens have expired), so only those younger are listed.
 */
export async function listCalls(
  db: Kysely<Database>,
  companyId: number,
  { status, categoryId, perCategory, after }: CallListQuery,
  offerMs: number,
): Promise<CallSummary[]> {
  let query = db
    .selectFrom('call_reports as r')
    .innerJoin('guests as g', 'g.id', 'r.guest_id')
    .select((eb) => {
      // The guest's latest welcome-form submission, for its answers and which were verified.
      const latestWelcome = eb
        .selectFrom('form_submissions as s')
        .innerJoin('forms as f', 'f.id', 's.form_id')
        .whereRef('s.guest_id', '=', 'r.guest_id')
        .where('f.kind', '=', 'welcome')
        .orderBy('s.created_at', 'desc')
        .orderBy('s.id', 'desc')
        .limit(1);
      return [
        'r.call_id',
        'r.id',
        'r.category_id',
        'r.call_type',
        'r.call_method',
        'r.agent_id',
        'r.assignment_group',
        'r.created_at',
        'r.answered_at',
        'g.username',
        'g.jabberusername',
        latestWelcome.select('s.answers').as('welcome_answers'),
        latestWelcome.select('s.verified_fields').as('welcome_verified'),
        // Earlier conversations: chain roots, so a transferred call counts once.
        eb
          .selectFrom('call_reports as p')
          .select((count) => count.fn.countAll<number>().as('count'))
          .whereRef('p.guest_id', '=', 'r.guest_id')
          .where('p.status', '=', 'ok')
          .whereRef('p.origin_call_id', '=', 'p.call_id')
          .whereRef('p.call_id', '<>', 'r.origin_call_id')
          .whereRef('p.created_at', '<', 'r.created_at')
          .as('previous_calls'),
      ];
    })
    .where('r.company_id', '=', companyId)
    .where('r.status', '=', 'ok')
    .where('r.ended_at', 'is', null)
    .where('r.agent_id', status === 'waiting' ? 'is' : 'is not', null)
    .where('r.created_at', '>', liveCallsSince())
    // Each category's place in its own line, oldest first.
    .select(
      sql<number>`row_number() over (partition by r.category_id order by r.created_at, r.id)`.as(
        'place',
      ),
    );
  if (categoryId !== undefined) query = query.where('r.category_id', '=', categoryId);
  if (after !== undefined) {
    query = query.where(
      sql<boolean>`(r.created_at, r.id) > (select created_at, id from call_reports where id = ${after})`,
    );
  }
  const company = await requireCompany(db, companyId);
  const settings = companySettingsSchema.parse(company.settings);
  const [rows, rotation] = await Promise.all([
    db
      .selectFrom(query.as('q'))
      .selectAll()
      .where('q.place', '<=', perCategory)
      .orderBy('q.created_at')
      .orderBy('q.id')
      .execute(),
    status === 'waiting' ? roundRobinAgents(db, companyId, settings) : NO_ROTATION,
  ]);
  const now = Date.now();
  const turns: OfferTurn[] = [];
  const calls = rows.map((row): CallSummary => {
    const { group, counts } = groupOf(settings, row.assignment_group);
    const agents = offerableAgents(
      rotation.available,
      row.category_id === null ? undefined : rotation.serving.get(row.category_id),
      counts && group ? (rotation.members.get(group.id) ?? []) : undefined,
    );
    const offer = offerOf({ id: row.id, createdAt: row.created_at }, agents, offerMs, now);
    if (offer) {
      turns.push({
        companyId,
        callReportId: row.id,
        staffId: offer.staffId,
        at: new Date(offer.until.getTime() - offerMs),
        until: offer.until,
      });
    }
    return {
      callId: row.call_id,
      reportId: row.id,
      guestUsername: row.username,
      guestJabberUsername: row.jabberusername,
      categoryId: row.category_id,
      callType: row.call_type,
      callMethod: row.call_method,
      agentJabberUsername: row.agent_id === null ? null : staffJabberUsername(row.agent_id),
      createdAt: row.created_at.toISOString(),
      answeredAt: row.answered_at?.toISOString() ?? null,
      welcomeAnswers: row.welcome_answers,
      welcomeVerified: row.welcome_verified ?? [],
      previousCalls: row.previous_calls ?? 0,
      assignmentGroup: group,
      offer: offer && {
        agentJabberUsername: staffJabberUsername(offer.staffId),
        until: offer.until.toISOString(),
      },
    };
  });
  // Reports tell whom a call was offered to, and which offers ran out unanswered.
  await recordOffers(db, turns);
  return calls;
}
