import { sql, type Kysely } from 'kysely';
import {
  callQualityBodySchema,
  reportCallsQuerySchema,
  type Answers,
  type FormField,
  type CallEndedBy,
  type Recording,
  type ReportCallDetail,
  type TimelineEntry,
  type TimelineTarget,
} from '@frontdesk/protocol';
import type { Database } from '../db/schema.ts';
import { NotFoundError } from '../domain-errors.ts';
import { latestWelcomeBefore } from '../forms/submissions.ts';
import { listedConversations, toReportCall } from './call-list.ts';

/** A call's page judges short abandons by the reports' default cut-off. */
const SHORT_ABANDON_SECONDS = reportCallsQuerySchema.shape.shortAbandonSeconds.parse(undefined);

type Person = { id: number; name: string } | null;

const person = (id: number | null, name: string | null): Person =>
  id === null || name === null ? null : { id, name };

/**
 * The answers as the form asks them: each answered field with its label, a choice by its
 * option's label, a tick as `true` or `false`, in the form's order.
 */
export function answeredFields(
  fields: readonly FormField[],
  answers: Answers,
): { name: string; label: string; value: string | boolean }[] {
  return fields.flatMap((field) => {
    const value = answers[field.name];
    if (value === undefined) return [];
    let shown: string | boolean = String(value);
    if (field.type === 'select') {
      shown = field.options.find((option) => option.value === value)?.label ?? shown;
    } else if (field.type === 'checkbox') {
      shown = value === true;
    }
    return [{ name: field.name, label: field.label, value: shown }];
  });
}

/** {@link answeredFields} with a tick as Yes or No, as the reports show it. */
export function labelledAnswers(
  fields: readonly FormField[],
  answers: Answers,
): ReportCallDetail['welcomeAnswers'] {
  return answeredFields(fields, answers).map(({ value, ...answer }) => ({
    ...answer,
    value: typeof value === 'boolean' ? (value ? 'Yes' : 'No') : value,
  }));
}

/** The conversation of `callId` (its origin, or any of its legs) in the company, or 404. */
async function requireConversation(db: Kysely<Database>, companyId: number, callId: string) {
  const origin = await db
    .selectFrom('call_reports as leg')
    .innerJoin('call_reports as o', 'o.call_id', 'leg.origin_call_id')
    .innerJoin('guests as g', 'g.id', 'o.guest_id')
    .select(['o.id', 'o.call_id', 'o.created_at', 'o.guest_id', 'g.username'])
    .where('leg.call_id', '=', callId)
    // SECURITY: another company's call is as unknown as a call that never was.
    .where('leg.company_id', '=', companyId)
    .executeTakeFirst();
  if (!origin) throw new NotFoundError('call_not_found', `There is no call ${callId}.`);
  return origin;
}

type LegRow = {
  id: number;
  call_id: string;
  created_at: Date;
  call_initiated_at: Date | null;
  answered_at: Date | null;
  ended_at: Date | null;
  ended_by: CallEndedBy | null;
  agent_id: number | null;
  agent_name: string | null;
  category_id: number | null;
  category_name: string | null;
  transfer_to_staff_id: number | null;
  transfer_staff_name: string | null;
  transfer_to_category_id: number | null;
  transfer_category_name: string | null;
  notes: string | null;
  rating: number | null;
  outcome_code: string | null;
  outcome_label: string | null;
  follow_up: boolean;
  follow_up_note: string | null;
  wrapped_up_at: Date | null;
};

type EventRow = {
  call_report_id: number;
  kind: 'offered' | 'held' | 'resumed' | 'transfer_requested';
  at: Date;
  until: Date | null;
  staff_id: number | null;
  staff_name: string | null;
  target_type: TimelineTarget['type'] | null;
  target_name: string | null;
};

/** Where a leg sent the guest on. */
function transferTarget(leg: LegRow): TimelineTarget | null {
  if (leg.transfer_to_staff_id !== null) return { type: 'agent', name: leg.transfer_staff_name };
  if (leg.transfer_to_category_id !== null) {
    return { type: 'category', name: leg.transfer_category_name };
  }
  return null;
}

/** Which of two entries at one instant comes first: the order things happen in a call. */
const KIND_ORDER: readonly TimelineEntry['kind'][] = [
  'initiated',
  'transferred',
  'queued',
  'offered',
  'offer_missed',
  'answered',
  'held',
  'resumed',
  'transfer_requested',
  'abandoned',
  'ended',
  'rated',
  'bug_reported',
];

/**
 * The conversation's moments in order: from its reports' timestamps (initiated, queued,
 * answered, transferred, ended) and its events (offers, those that ran out, holds, transfer
 * requests), ratings and bug reports.
 */
function timelineOf(
  legs: readonly LegRow[],
  events: readonly EventRow[],
  outcome: string,
  ratings: readonly { call_id: string; at: Date; rating: number | null }[],
  bugs: readonly { call_id: string; at: Date }[],
  now: Date,
): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  const moment = (at: Date, callId: string, staff: Person = null) => ({
    at: at.toISOString(),
    callId,
    staff,
  });
  type PlainKind = Exclude<
    TimelineEntry['kind'],
    'transfer_requested' | 'transferred' | 'ended' | 'abandoned' | 'rated'
  >;
  const add = (at: Date, kind: PlainKind, callId: string, staff: Person = null) =>
    entries.push({ ...moment(at, callId, staff), kind });
  legs.forEach((leg, index) => {
    const previous = legs[index - 1];
    const sentOn = previous && transferTarget(previous);
    if (!previous) add(leg.created_at, 'initiated', leg.call_id);
    else if (sentOn) {
      entries.push({ ...moment(leg.created_at, leg.call_id), kind: 'transferred', target: sentOn });
    }
    if (leg.call_initiated_at) add(leg.call_initiated_at, 'queued', leg.call_id);
    else if (previous) add(leg.created_at, 'queued', leg.call_id);
    for (const event of events.filter((e) => e.call_report_id === leg.id)) {
      const staff = person(event.staff_id, event.staff_name);
      if (event.kind === 'transfer_requested') {
        // A target that is not the company's is as unknown as one never named.
        const target =
          event.target_type && event.target_name !== null
            ? { type: event.target_type, name: event.target_name }
            : null;
        entries.push({ ...moment(event.at, leg.call_id, staff), kind: event.kind, target });
        continue;
      }
      add(event.at, event.kind, leg.call_id, staff);
      // An offer ran out when its turn ended before anyone answered and before the leg ended.
      const settled = leg.answered_at ?? leg.ended_at ?? now;
      if (event.kind === 'offered' && event.until && event.until <= settled) {
        add(event.until, 'offer_missed', leg.call_id, staff);
      }
    }
    if (leg.answered_at) {
      add(leg.answered_at, 'answered', leg.call_id, person(leg.agent_id, leg.agent_name));
    }
    const last = index === legs.length - 1;
    if (last && leg.ended_at) {
      const kind = outcome === 'abandoned' || outcome === 'shortAbandoned' ? 'abandoned' : 'ended';
      entries.push({ ...moment(leg.ended_at, leg.call_id), kind, endedBy: leg.ended_by });
    }
  });
  for (const rated of ratings) {
    entries.push({ ...moment(rated.at, rated.call_id), kind: 'rated', rating: rated.rating });
  }
  for (const bug of bugs) add(bug.at, 'bug_reported', bug.call_id);
  return entries.sort(
    (a, b) => a.at.localeCompare(b.at) || KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind),
  );
}

export type RecordingLister = (callReportIds: readonly number[]) => Promise<Recording[]>;

/**
 * `GET /api/reports/calls/:callId`: the conversation of `callId` (its origin's id, or a leg's)
 * whole, for the company's admin; 404 for a call of any other company.
 */
export async function reportCallDetail(
  db: Kysely<Database>,
  companyId: number,
  callId: string,
  recordings: RecordingLister,
  now = new Date(),
): Promise<ReportCallDetail> {
  const origin = await requireConversation(db, companyId, callId);
  const instantAfter = new Date(origin.created_at.getTime() + 1);
  const [[conversation], legs] = await Promise.all([
    listedConversations(
      db,
      {
        scope: {
          companyId,
          timeZone: 'UTC',
          from: origin.created_at,
          to: instantAfter,
          categoryId: undefined,
          agentId: undefined,
          openings: undefined,
        },
        originId: origin.id,
      },
      { shortAbandonSeconds: SHORT_ABANDON_SECONDS },
    ),
    db
      .selectFrom('call_reports as l')
      .leftJoin('staff as a', 'a.id', 'l.agent_id')
      .leftJoin('categories as k', 'k.id', 'l.category_id')
      .leftJoin('staff as ts', 'ts.id', 'l.transfer_to_staff_id')
      .leftJoin('categories as tk', 'tk.id', 'l.transfer_to_category_id')
      // The outcome's label as the company names it now; a code since removed shows as itself.
      .leftJoin('call_outcome_codes as oc', (join) =>
        join.onRef('oc.company_id', '=', 'l.company_id').onRef('oc.code', '=', 'l.outcome_code'),
      )
      .select([
        'l.id',
        'l.call_id',
        'l.created_at',
        'l.call_initiated_at',
        'l.answered_at',
        'l.ended_at',
        'l.ended_by',
        'l.agent_id',
        'a.name as agent_name',
        'l.category_id',
        'k.name as category_name',
        'l.transfer_to_staff_id',
        'ts.name as transfer_staff_name',
        'l.transfer_to_category_id',
        'tk.name as transfer_category_name',
        'l.notes',
        'l.rating',
        'l.outcome_code',
        'oc.label as outcome_label',
        'l.follow_up',
        'l.follow_up_note',
        'l.wrapped_up_at',
      ])
      .where('l.origin_call_id', '=', origin.call_id)
      .where('l.company_id', '=', companyId)
      .orderBy('l.created_at')
      .orderBy('l.id')
      .execute(),
  ]);
  if (!conversation) throw new Error(`conversation ${origin.call_id} has no facts`);
  const legIds = legs.map((leg) => leg.id);
  const [events, welcome, ratingForms, files, bugs, quality, previous, films] = await Promise.all([
    sql<EventRow>`
      select e.call_report_id, e.kind, e.at, e.until, e.staff_id, s.name as staff_name,
        case when ts.id is not null then 'agent' when tk.id is not null then 'category' end
          as target_type,
        coalesce(ts.name, tk.name) as target_name
      from call_events e
      left join staff s on s.id = e.staff_id
      left join staff ts on ts.id = (e.details->>'toStaffId')::int and ts.company_id = ${companyId}
      left join categories tk on tk.id = (e.details->>'toCategoryId')::int
        and tk.company_id = ${companyId}
      where e.company_id = ${companyId} and e.call_report_id = any(${legIds})
      order by e.at, e.id`.execute(db),
    // The welcome answers the guest gave last before the call.
    latestWelcomeBefore(db, companyId, origin.guest_id, origin.created_at),
    db
      .selectFrom('rating_submissions as r')
      .innerJoin('forms as f', 'f.id', 'r.form_id')
      .innerJoin('call_reports as l', 'l.id', 'r.call_report_id')
      .select(['r.answers', 'r.created_at', 'f.title', 'f.fields', 'l.call_id'])
      .where('r.call_report_id', 'in', legIds)
      .orderBy('r.created_at', 'desc')
      .execute(),
    db
      .selectFrom('uploads')
      .select(['id', 'original_name', 'type', 'size_bytes', 'staff_id', 'created_at'])
      .where('company_id', '=', companyId)
      .where('call_report_id', 'in', legIds)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('call_bugs')
      .select([
        'id',
        'call_id',
        'created_at',
        'guest_client_info',
        sql<number>`jsonb_array_length(guest_log)`.as('log_entries'),
      ])
      .where('company_id', '=', companyId)
      .where('call_report_id', 'in', legIds)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('call_quality as q')
      .innerJoin('call_reports as l', 'l.id', 'q.call_report_id')
      .selectAll('q')
      .select('l.call_id')
      .where('q.company_id', '=', companyId)
      .where('q.call_report_id', 'in', legIds)
      .orderBy('q.reported_at')
      .execute(),
    // Earlier conversations of the guest that were let through.
    db
      .selectFrom('call_reports')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('guest_id', '=', origin.guest_id)
      .where('status', '=', 'ok')
      .whereRef('origin_call_id', '=', 'call_id')
      .where('created_at', '<', origin.created_at)
      .executeTakeFirstOrThrow(),
    recordings(legIds),
  ]);
  const latestRating = ratingForms[0];
  const plainRatings = legs
    .filter((leg) => leg.rating !== null && !ratingForms.some((r) => r.call_id === leg.call_id))
    // A plain rating keeps no time of its own: the guest gives it as its call ends.
    .map((leg) => ({ call_id: leg.call_id, at: leg.ended_at ?? now, rating: leg.rating }));
  return {
    call: toReportCall(conversation),
    guest: { username: origin.username, previousCalls: previous.count },
    legs: legs.map((leg) => ({
      callId: leg.call_id,
      createdAt: leg.created_at.toISOString(),
      answeredAt: leg.answered_at?.toISOString() ?? null,
      endedAt: leg.ended_at?.toISOString() ?? null,
      agent: person(leg.agent_id, leg.agent_name),
      category: person(leg.category_id, leg.category_name),
      notes: leg.notes,
      wrapUp: leg.wrapped_up_at
        ? {
            outcomeCode: leg.outcome_code,
            outcomeLabel: leg.outcome_label,
            followUp: leg.follow_up,
            followUpNote: leg.follow_up_note,
          }
        : null,
    })),
    timeline: timelineOf(
      legs,
      events.rows,
      conversation.outcome,
      [
        ...ratingForms.map((r) => ({
          call_id: r.call_id,
          at: r.created_at,
          rating: legs.find((leg) => leg.call_id === r.call_id)?.rating ?? null,
        })),
        ...plainRatings,
      ],
      bugs.map((bug) => ({ call_id: bug.call_id, at: bug.created_at })),
      now,
    ),
    welcomeAnswers: welcome ? labelledAnswers(welcome.fields, welcome.answers) : [],
    rating: conversation.rating,
    ratingForm: latestRating
      ? {
          title: latestRating.title,
          answers: labelledAnswers(latestRating.fields, latestRating.answers),
        }
      : null,
    files: files.map((file) => ({
      id: file.id,
      name: file.original_name,
      type: file.type,
      sizeBytes: file.size_bytes,
      from: file.staff_id === null ? 'guest' : 'staff',
      at: file.created_at.toISOString(),
    })),
    bugs: bugs.map((bug) => ({
      id: bug.id,
      at: bug.created_at.toISOString(),
      clientInfo: bug.guest_client_info,
      logEntries: bug.log_entries,
    })),
    quality: quality.map((q) => ({
      role: q.role,
      callId: q.call_id,
      reportedAt: q.reported_at.toISOString(),
      setupMs: q.setup_ms,
      localCandidateType: q.local_candidate_type,
      remoteCandidateType: q.remote_candidate_type,
      relayProtocol: callQualityBodySchema.shape.relayProtocol.parse(q.relay_protocol),
      packetsReceived: Number(q.packets_received ?? 0),
      packetsLost: Number(q.packets_lost ?? 0),
      jitterMs: q.jitter_ms,
      roundTripMs: q.round_trip_ms,
      sendKbps: q.send_kbps,
      receiveKbps: q.receive_kbps,
      reconnects: q.reconnects,
      iceFailed: q.ice_failed,
    })),
    recordings: films,
  };
}
