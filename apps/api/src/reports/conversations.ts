import { sql, type RawBuilder } from 'kysely';
import type { CallOutcome, CallType } from '@frontdesk/protocol';
import type { ReportScope } from './report-range.ts';

/**
 * Every report reads conversations (docs/reports.md): a chain of call reports that share their
 * origin's call id, named by it. Their facts are kept one row a conversation (report_conversations,
 * migration 0020, "How the figures are kept"); this module is the one place that says, in SQL,
 * how those facts answer a report's question — its outcome, wait, handle time, holds — so the
 * summary, the list and the CSV agree.
 */

/** Where a conversation's key (its origin's start and report id) stands, for keyset paging. */
export type ConversationKey = { startedAt: string; id: number };

/**
 * Which conversations to read: all of the scope at once, or one batch of them between two keys
 * (newest first), or the one of an origin report.
 */
export type OriginSelection = {
  scope: ReportScope;
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
 * The conditions on a conversation's facts (alias `o`, report_conversations) of the scope: the
 * company's, begun in the range, in the category and opening hours asked for, older than
 * `before`.
 */
export function originConditions(
  scope: ReportScope,
  before: ConversationKey | undefined,
): RawBuilder<unknown> {
  const where: RawBuilder<unknown>[] = [
    sql`o.company_id = ${scope.companyId}`,
    sql`o.started_at >= ${scope.from}`,
    sql`o.started_at < ${scope.to}`,
  ];
  if (scope.categoryId !== undefined) where.push(sql`o.category_id = ${scope.categoryId}`);
  if (scope.openings !== undefined) {
    where.push(sql`o.started_at <@ cast(${scope.openings} as tstzmultirange)`);
  }
  // The plain bound lets the index narrow the scan as well.
  if (before) {
    where.push(sql`o.started_at <= ${keyTime(before)}`);
    where.push(sql`(o.started_at, o.origin_id) < (${keyTime(before)}, ${before.id})`);
  }
  return sql.join(where, sql` and `);
}

/** Whether the agent a report narrows to answered some leg of the facts `o` (true without one). */
export const withAgent = (scope: ReportScope) =>
  scope.agentId === undefined ? sql`true` : sql`${scope.agentId} = any (o.answered_leg_agent_ids)`;

/**
 * The weekday (0 = Sunday) and hour of an instant (by default when conversation `o` began), by
 * the company's clock.
 */
export const weekdayOf = (scope: ReportScope, instant: RawBuilder<unknown> = sql`o.started_at`) =>
  sql`extract(dow from ${instant} at time zone ${scope.timeZone})::int`;
export const hourOf = (scope: ReportScope, instant: RawBuilder<unknown> = sql`o.started_at`) =>
  sql`extract(hour from ${instant} at time zone ${scope.timeZone})::int`;

/**
 * The `with` clauses that end in `classified`: one row a conversation of the selection, read
 * from its facts (report_conversations, kept by the database's triggers: migration 0020), with
 * what depends on the report's question worked out here — the outcome by the short-abandon
 * cut-off, the agent asked about, the time zone's weekday and hour, a hold still running.
 */
export function conversationsWith(
  selection: OriginSelection,
  shortAbandonSeconds: number,
): RawBuilder<unknown> {
  const { scope, before, through, originId } = selection;
  const where = [originConditions(scope, before)];
  if (through) {
    where.push(sql`o.started_at >= ${keyTime(through)}`);
    where.push(sql`(o.started_at, o.origin_id) >= (${keyTime(through)}, ${through.id})`);
  }
  if (originId !== undefined) where.push(sql`o.origin_id = ${originId}`);
  return sql`
  conversations as (
    select o.origin_id as id, o.call_id, o.started_at, o.status, o.category_id, o.guest_id,
      o.call_type, o.answered_at, o.ended_at, o.first_agent_id, ${withAgent(scope)} as with_agent,
      o.leg_handle_ms, o.rating, o.transfers, o.holds,
      -- A hold still running counts until now.
      case when cardinality(o.open_holds_since) = 0 then o.hold_ms else (o.ended_hold_ms + (
        select sum(greatest(0, extract(epoch from now() - since) * 1000))
        from unnest(o.open_holds_since) since))::bigint end as hold_ms,
      o.rating_submission_ids, o.recorded, o.recordings_ready, o.recordings_pending, o.recordings_failed, o.measured,
      o.relayed, o.setup_ms, o.round_trip_ms, o.loss_ratio, o.poor_quality,
      ${weekdayOf(scope)} as weekday, ${hourOf(scope)} as hour
    from report_conversations o
    where ${sql.join(where, sql` and `)}
  ),
  classified as (
    -- Each case reads the facts themselves, in float8 (date_part, not extract's numeric), rather
    -- than the outcome's case: the summary classifies every conversation of its range.
    select c.*,
      case
        when c.status <> 'ok' then c.status
        when c.ended_at is null then 'live'
        when c.answered_at is not null then 'answered'
        when c.ended_at - c.started_at < make_interval(secs => ${shortAbandonSeconds})
          then 'shortAbandoned'
        else 'abandoned'
      end as outcome,
      -- Time agents spent with the guest: each answered leg from its answer to its end.
      case when c.status = 'ok' and c.ended_at is not null and c.answered_at is not null
        then round(c.leg_handle_ms) end::bigint as handle_ms,
      case when c.status = 'ok' and c.ended_at is not null then round(
        date_part('epoch', coalesce(c.answered_at, c.ended_at) - c.started_at) * 1000)
      end::bigint as wait_ms
    from conversations c
  )`;
}
