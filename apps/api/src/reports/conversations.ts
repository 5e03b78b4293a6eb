import { sql, type RawBuilder } from 'kysely';
import type { CallOutcome, CallType } from '@frontdesk/protocol';
import type { ReportScope } from './report-range.ts';

/**
 * Every report reads conversations (docs/reports.md): a chain of call reports that share their
 * origin's call id, named by it. This module is the one place that says, in SQL, what happened
 * to a conversation — its outcome, wait, handle time, holds, transfers, rating and quality — so
 * the summary, the list, the CSV and a call's page all agree.
 */

/** Where a conversation's key (its origin's start and report id) stands, for keyset paging. */
export type ConversationKey = { startedAt: string; id: number };

/**
 * Which conversations to read: all of the scope at once (`bulk`, for figures), or one batch of
 * them between two keys (newest first), or the one of an origin report.
 */
export type OriginSelection = {
  scope: ReportScope;
  bulk?: boolean;
  /** Only those older than this key. */
  before?: ConversationKey | undefined;
  /** Only those at or newer than this key (`before` … `through` is one batch). */
  through?: ConversationKey | undefined;
  originId?: number | undefined;
};

/** A conversation as the reports see it (`classified` below). */
export type ConversationRow = {
  id: number;
  call_id: string;
  started_at: Date;
  status: 'ok' | 'blocked' | 'outOfQuota';
  category_id: number | null;
  guest_id: number;
  call_type: CallType | null;
  answered_at: Date | null;
  ended_at: Date | null;
  first_agent_id: number | null;
  /** The agent a report narrows to answered some leg (always true without one). */
  with_agent: boolean;
  outcome: CallOutcome;
  wait_ms: number | null;
  handle_ms: number | null;
  rating: number | null;
  holds: number;
  hold_ms: number;
  transfers: number;
  recorded: boolean;
  recordings_ready: number;
  recordings_pending: number;
  recordings_failed: number;
  /** Some side reported its media. */
  measured: boolean;
  relayed: boolean | null;
  setup_ms: number | null;
  round_trip_ms: number | null;
  loss_ratio: number | null;
  poor_quality: boolean;
  weekday: number;
  hour: number;
};

const keyTime = (key: ConversationKey) => sql`cast(${key.startedAt} as timestamptz)`;

/**
 * The conditions on an origin report (alias `o`) of the scope: the company's, begun in the range,
 * in the category and opening hours asked for, older than `before`. An origin is the report with
 * no previous call (the one whose call id names its chain).
 */
export function originConditions(
  scope: ReportScope,
  before: ConversationKey | undefined,
): RawBuilder<unknown> {
  const where: RawBuilder<unknown>[] = [
    sql`o.company_id = ${scope.companyId}`,
    sql`o.previous_call_id is null`,
    sql`o.created_at >= ${scope.from}`,
    sql`o.created_at < ${scope.to}`,
  ];
  if (scope.categoryId !== undefined) where.push(sql`o.category_id = ${scope.categoryId}`);
  if (scope.openings !== undefined) {
    where.push(sql`o.created_at <@ cast(${scope.openings} as tstzmultirange)`);
  }
  // The plain bound lets an index on the start alone narrow the scan as well.
  if (before) {
    where.push(sql`o.created_at <= ${keyTime(before)}`);
    where.push(sql`(o.created_at, o.id) < (${keyTime(before)}, ${before.id})`);
  }
  return sql.join(where, sql` and `);
}

function originsQuery({ scope, before, through, originId }: OriginSelection) {
  const where = [originConditions(scope, before)];
  if (through) {
    where.push(sql`o.created_at >= ${keyTime(through)}`);
    where.push(sql`(o.created_at, o.id) >= (${keyTime(through)}, ${through.id})`);
  }
  if (originId !== undefined) where.push(sql`o.id = ${originId}`);
  return sql`
    select o.id, o.call_id, o.created_at, o.status, o.category_id, o.guest_id, o.call_type,
      o.answered_at, o.ended_at, o.agent_id, o.rating
    from call_reports o
    where ${sql.join(where, sql` and `)}`;
}

/**
 * The `with` clauses that end in `classified`: one row a conversation of the selection.
 *
 * Nothing of a conversation precedes its start, so the later tables are read from the
 * selection's earliest start on. A `bulk` selection (the figures of a whole range) reads them by
 * company and time and joins in memory; a batch probes them by the ids of its own legs, so a page
 * or a batch of the export costs what it holds, not what the range holds.
 */
export function conversationsWith(
  selection: OriginSelection,
  shortAbandonSeconds: number,
): RawBuilder<unknown> {
  const { scope } = selection;
  const company = scope.companyId;
  const earliest = selection.through ? keyTime(selection.through) : sql`${scope.from}`;
  const ofLegs = (column: string) =>
    selection.bulk ? sql`` : sql`and ${sql.ref(column)} in (select id from legs)`;
  /** Whether the agent a report narrows to answered the leg (`of` one leg, or any of them). */
  const withAgent = (alias: string, any: boolean) => {
    if (scope.agentId === undefined) return sql`true`;
    const answered = sql`${sql.ref(`${alias}.agent_id`)} = ${scope.agentId}
      and ${sql.ref(`${alias}.answered_at`)} is not null`;
    return any ? sql`coalesce(bool_or(${answered}), false)` : sql`coalesce(${answered}, false)`;
  };
  /**
   * What a conversation's legs tell, each fact twice side by side: of a conversation of one leg
   * (most), read from its origin `o` as it is; of several, aggregated over its legs `l`.
   */
  const legFacts: [name: string, ofOne: RawBuilder<unknown>, ofLegs: RawBuilder<unknown>][] = [
    ['answered_at', sql`o.answered_at`, sql`min(l.answered_at)`],
    [
      'first_agent_id',
      sql`case when o.answered_at is not null then o.agent_id end`,
      sql`(min(array[extract(epoch from l.answered_at), l.agent_id])
        filter (where l.answered_at is not null))[2]::int`,
    ],
    ['with_agent', withAgent('o', false), withAgent('l', true)],
    // A leg ends when the next begins: the conversation has ended when all its legs have.
    [
      'ended_at',
      sql`o.ended_at`,
      sql`case when bool_and(l.ended_at is not null) then max(l.ended_at) end`,
    ],
    [
      'leg_handle_ms',
      sql`extract(epoch from o.ended_at - o.answered_at) * 1000`,
      sql`sum(extract(epoch from l.ended_at - l.answered_at) * 1000)
        filter (where l.answered_at is not null and l.ended_at is not null)`,
    ],
    // The rating of the latest leg the guest rated.
    [
      'rating',
      sql`o.rating`,
      sql`(max(array[extract(epoch from l.created_at), l.id, l.rating])
        filter (where l.rating is not null))[3]::int`,
    ],
    // Video when any leg was: its guest had a camera on.
    [
      'call_type',
      sql`o.call_type`,
      sql`case when bool_or(l.call_type = 'video') then 'video' else max(l.call_type) end`,
    ],
    ['transfers', sql`0`, sql`count(*) filter (where l.transferred)::int`],
  ];
  return sql`
  origins as materialized (${originsQuery(selection)}),
  later_legs as materialized (
    -- A transfer is a leg whose previous leg named where to send the guest.
    select l.id, l.origin_call_id, l.created_at, l.answered_at, l.ended_at, l.agent_id, l.rating,
      l.call_type,
      -- Looked up leg by leg: a join would read every report to find the few previous ones.
      coalesce((
        select p.transfer_to_staff_id is not null or p.transfer_to_category_id is not null
        from call_reports p where p.call_id = l.previous_call_id
      ), false) as transferred
    from call_reports l
    join origins o on o.call_id = l.origin_call_id
    where l.company_id = ${company} and l.previous_call_id is not null
      and l.created_at >= ${earliest}
  ),
  legs as materialized (
    select id, call_id as origin_call_id, created_at, answered_at, ended_at, agent_id, rating,
      call_type, false as transferred
    from origins
    union all
    select id, origin_call_id, created_at, answered_at, ended_at, agent_id, rating, call_type,
      transferred
    from later_legs
  ),
  multi_leg as (
    select l.origin_call_id, ${sql.join(legFacts.map(([name, , ofLegs]) => sql`${ofLegs} as ${sql.ref(name)}`))}
    from legs l
    where l.origin_call_id in (select origin_call_id from later_legs)
    group by l.origin_call_id
  ),
  hold_events as (
    select e.call_report_id, e.kind, e.at,
      lag(e.kind) over w as previous_kind, lead(e.kind) over w as next_kind,
      lead(e.at) over w as next_at
    from call_events e
    where e.company_id = ${company} and e.kind in ('held', 'resumed') and e.at >= ${earliest}
      ${ofLegs('e.call_report_id')}
    window w as (partition by e.call_report_id order by e.at, e.id)
  ),
  conversation_holds as (
    -- A hold lasts until the agent resumes, else until its leg ends; holding again while on
    -- hold is the same hold.
    select l.origin_call_id, count(*)::int as holds,
      sum(greatest(0, extract(epoch from
        case when h.next_kind = 'resumed' then h.next_at else coalesce(l.ended_at, now()) end
        - h.at) * 1000))::bigint as hold_ms
    from hold_events h join legs l on l.id = h.call_report_id
    where h.kind = 'held' and h.previous_kind is distinct from 'held'
    group by l.origin_call_id
  ),
  conversation_quality as (
    select l.origin_call_id,
      bool_or(q.local_candidate_type = 'relay' or q.remote_candidate_type = 'relay') as relayed,
      max(q.setup_ms) as setup_ms,
      max(q.round_trip_ms) as round_trip_ms,
      bool_or(q.ice_failed) as ice_failed,
      sum(q.packets_lost)::float8 / nullif(sum(q.packets_lost + q.packets_received), 0) as loss_ratio
    from call_quality q join legs l on l.id = q.call_report_id
    where q.company_id = ${company} and q.reported_at >= ${earliest}
      ${ofLegs('q.call_report_id')}
    group by l.origin_call_id
  ),
  conversation_recordings as (
    -- Recorded: some leg's recording was kept, whatever became of its merge.
    select l.origin_call_id,
      count(*) filter (where r.status = 'ready')::int as ready,
      count(*) filter (where r.status = 'pending')::int as pending,
      count(*) filter (where r.status = 'failed')::int as failed
    from call_recordings r join legs l on l.id = r.call_report_id
    where r.company_id = ${company} ${ofLegs('r.call_report_id')}
    group by l.origin_call_id
  ),
  conversations as (
    select o.id, o.call_id, o.created_at as started_at, o.status, o.category_id, o.guest_id,
      ${sql.join(
        legFacts.map(
          ([name, ofOne]) =>
            sql`case when m.origin_call_id is null then ${ofOne} else ${sql.ref(`m.${name}`)} end as ${sql.ref(name)}`,
        ),
      )},
      coalesce(h.holds, 0) as holds, coalesce(h.hold_ms, 0) as hold_ms,
      r.origin_call_id is not null as recorded,
      coalesce(r.ready, 0) as recordings_ready, coalesce(r.pending, 0) as recordings_pending,
      coalesce(r.failed, 0) as recordings_failed,
      q.origin_call_id is not null as measured,
      case when q.origin_call_id is not null then coalesce(q.relayed, false) end as relayed,
      q.setup_ms, q.round_trip_ms, q.loss_ratio,
      coalesce(q.ice_failed or q.loss_ratio > 0.05 or q.round_trip_ms > 400 or q.setup_ms > 5000,
        false) as poor_quality,
      extract(dow from o.created_at at time zone ${scope.timeZone})::int as weekday,
      extract(hour from o.created_at at time zone ${scope.timeZone})::int as hour
    from origins o
    left join multi_leg m on m.origin_call_id = o.call_id
    left join conversation_holds h on h.origin_call_id = o.call_id
    left join conversation_quality q on q.origin_call_id = o.call_id
    left join conversation_recordings r on r.origin_call_id = o.call_id
  ),
  classified as (
    select v.*,
      -- Time agents spent with the guest: each answered leg from its answer to its end.
      case when v.outcome = 'answered' then round(v.leg_handle_ms) end::bigint as handle_ms,
      case
        when v.status <> 'ok' then null
        when v.outcome = 'answered' then round(extract(epoch from v.answered_at - v.started_at) * 1000)
        when v.outcome in ('abandoned', 'shortAbandoned')
          then round(extract(epoch from v.ended_at - v.started_at) * 1000)
      end::bigint as wait_ms
    from (
      select c.*,
        case
          when c.status <> 'ok' then c.status
          when c.ended_at is null then 'live'
          when c.answered_at is not null then 'answered'
          when c.ended_at - c.started_at < make_interval(secs => ${shortAbandonSeconds})
            then 'shortAbandoned'
          else 'abandoned'
        end as outcome
      from conversations c
    ) v
  )`;
}
