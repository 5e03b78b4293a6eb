import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { FormField, ReportSummary, ReportSummaryQuery } from '@frontdesk/protocol';
import type { Database } from '../db/schema.ts';
import {
  conversationsWith,
  hourOf,
  originConditions,
  weekdayOf,
  withAgent,
} from './conversations.ts';
import type { ReportScope } from './report-range.ts';

type CutOffs = Pick<
  ReportSummaryQuery,
  'shortAbandonSeconds' | 'serviceLevelSeconds' | 'serviceLevelTarget'
>;

type Quantiles = [number | null, number | null] | null;

/** What the summary's queries answer, as PostgreSQL's JSON has it. */
type SummaryRow = {
  totals: {
    calls: number;
    answered: number;
    abandoned: number;
    short_abandoned: number;
    live: number;
    blocked: number;
    out_of_quota: number;
    average_speed_of_answer_ms: number | null;
    answered_within: number;
    average_handle_time_ms: number | null;
    holds: number;
    held_calls: number;
    hold_ms: number;
    transfers: number;
    responses: number;
    satisfied: number;
    rating_average: number | null;
    distribution: number[];
    measured: number;
    relayed: number;
    poor: number;
    /** Median and 95th percentile; `null` with nothing measured. */
    setup_quantiles: Quantiles;
    round_trip_quantiles: Quantiles;
    loss_quantiles: Quantiles;
    recordings_ready: number;
    recordings_pending: number;
    recordings_failed: number;
  };
  heatmap: { weekday: number; hour: number; calls: number }[];
  agents: {
    agent_id: number;
    name: string;
    answered: number;
    average_handle_time_ms: number | null;
    responses: number;
    satisfied: number;
    missed_offers: number;
  }[];
  forms: { form_id: number; title: string; fields: FormField[]; responses: number }[];
  answers: {
    form_id: number;
    name: string;
    value: string;
    count: number;
  }[];
  numbers: { form_id: number; name: string; responses: number; average: number | null }[];
};

const ratioOf = (part: number, whole: number) => (whole === 0 ? null : part / whole);
const roundOrNull = (value: number | null) => (value === null ? null : Math.round(value));
const roundedQuantiles = (quantiles: Quantiles) => ({
  median: roundOrNull(quantiles?.[0] ?? null),
  p95: roundOrNull(quantiles?.[1] ?? null),
});

/**
 * The figures of `GET /api/reports/summary` for the scope, each defined in docs/reports.md, all
 * worked out by PostgreSQL in three queries over the conversations of the range.
 */
export async function reportSummary(
  db: Kysely<Database>,
  scope: ReportScope,
  cutOffs: CutOffs,
): Promise<ReportSummary> {
  const company = scope.companyId;
  const serviceLevelMs = cutOffs.serviceLevelSeconds * 1000;
  // Figures that need no classification (the heatmap, the rating forms) read the facts of the
  // chosen conversations themselves, so the classified rows are read once and never stored.
  const chosenFacts = sql`${originConditions(scope, undefined)} and ${withAgent(scope)}`;
  // Three queries on three connections, run side by side: the totals over every conversation,
  // each agent's figures, and the heatmap with the rating forms' answers.
  const totals = sql<{ totals: SummaryRow['totals'] }>`
  with ${conversationsWith({ scope }, cutOffs.shortAbandonSeconds)},
  chosen as (select * from classified c where c.with_agent),
  totals as (
    select
      count(*) filter (where status = 'ok')::int as calls,
      count(*) filter (where outcome = 'answered')::int as answered,
      count(*) filter (where outcome = 'abandoned')::int as abandoned,
      count(*) filter (where outcome = 'shortAbandoned')::int as short_abandoned,
      count(*) filter (where outcome = 'live')::int as live,
      count(*) filter (where status = 'blocked')::int as blocked,
      count(*) filter (where status = 'outOfQuota')::int as out_of_quota,
      avg(wait_ms) filter (where outcome = 'answered')::float8 as average_speed_of_answer_ms,
      count(*) filter (where outcome = 'answered' and wait_ms <= ${serviceLevelMs})::int
        as answered_within,
      avg(handle_ms) filter (where outcome = 'answered')::float8 as average_handle_time_ms,
      coalesce(sum(holds), 0)::int as holds,
      count(*) filter (where holds > 0)::int as held_calls,
      coalesce(sum(hold_ms), 0)::float8 as hold_ms,
      coalesce(sum(transfers), 0)::int as transfers,
      count(rating) filter (where outcome = 'answered')::int as responses,
      count(*) filter (where outcome = 'answered' and rating >= 4)::int as satisfied,
      avg(rating) filter (where outcome = 'answered')::float8 as rating_average,
      array[${sql.join(
        [1, 2, 3, 4, 5].map(
          (score) =>
            sql`count(*) filter (where outcome = 'answered' and rating = ${sql.lit(score)})::int`,
        ),
      )}] as distribution,
      count(*) filter (where measured and status = 'ok')::int as measured,
      count(*) filter (where relayed and status = 'ok')::int as relayed,
      count(*) filter (where poor_quality and status = 'ok')::int as poor,
      -- Both quantiles of a measure from one sort of it.
      percentile_cont(array[0.5, 0.95]) within group (order by setup_ms) as setup_quantiles,
      percentile_cont(array[0.5, 0.95]) within group (order by round_trip_ms)
        as round_trip_quantiles,
      percentile_cont(array[0.5, 0.95]) within group (order by loss_ratio) as loss_quantiles,
      coalesce(sum(recordings_ready), 0)::int as recordings_ready,
      coalesce(sum(recordings_pending), 0)::int as recordings_pending,
      coalesce(sum(recordings_failed), 0)::int as recordings_failed
    from chosen
  )
  select row_to_json(t) as totals from totals t`;
  const agents = sql<{ agents: SummaryRow['agents'] }>`
  with
  agent_legs as (
    -- Every answered leg of the scope's conversations, whoever the report narrows to.
    select a.agent_id, count(*)::int as answered,
      avg(a.handle_ms)::float8 as average_handle_time_ms,
      count(a.rating)::int as responses,
      count(*) filter (where a.rating >= 4)::int as satisfied
    from report_conversations o
    -- The three arrays side by side (by subscript: cheaper than unnest's row function).
    cross join lateral (
      select o.answered_leg_agent_ids[i] as agent_id, o.answered_leg_handle_ms[i] as handle_ms,
        o.answered_leg_ratings[i] as rating
      from generate_subscripts(o.answered_leg_agent_ids, 1) as i
    ) a
    where ${originConditions(scope, undefined)}
    group by a.agent_id
  ),
  missed_offers as (
    -- Offers that ran out (a waiting leg's, once its turn has ended).
    select m.agent_id, count(*)::int as missed_offers
    from (
      select unnest(o.missed_offer_agent_ids) as agent_id
      from report_conversations o where ${originConditions(scope, undefined)}
      union all
      select w.agent_id
      from report_conversations o
      cross join unnest(o.open_offer_agent_ids, o.open_offer_untils) as w(agent_id, until)
      where ${originConditions(scope, undefined)} and w.until <= now()
    ) m
    group by m.agent_id
  ),
  agents as (
    select s.id as agent_id, s.name,
      coalesce(a.answered, 0) as answered, a.average_handle_time_ms,
      coalesce(a.responses, 0) as responses, coalesce(a.satisfied, 0) as satisfied,
      coalesce(m.missed_offers, 0) as missed_offers
    from agent_legs a
    full join missed_offers m on m.agent_id = a.agent_id
    join staff s on s.id = coalesce(a.agent_id, m.agent_id) and s.company_id = ${company}
    where ${scope.agentId === undefined ? sql`true` : sql`s.id = ${scope.agentId}`}
  )
  select coalesce(json_agg(a order by a.name, a.agent_id), '[]') as agents from agents a`;
  const extras = sql<Omit<SummaryRow, 'totals' | 'agents'>>`
  with
  form_answers as (
    select rs.form_id, rs.answers from rating_submissions rs
    where rs.id in (
      select unnest(o.rating_submission_ids) from report_conversations o
      where ${chosenFacts}
    )
  ),
  forms_used as (
    -- Counted before the form's fields join, so the sort carries no form definitions.
    select f.id as form_id, f.title, f.fields, n.responses
    from (select form_id, count(*)::int as responses from form_answers group by form_id) n
    join forms f on f.id = n.form_id and f.company_id = ${company}
  ),
  form_fields as (
    select fa.form_id, fa.answers, field->>'name' as name, field->>'type' as type
    from form_answers fa
    join forms_used u on u.form_id = fa.form_id
    cross join jsonb_array_elements(u.fields) field
  )
  select
    coalesce((
      select json_agg(cell order by cell.weekday, cell.hour) from (
        -- Counted by quarter hour first, so only the buckets meet the time zone, not each
        -- conversation (a quarter hour keeps zones such as +05:45 right).
        select ${weekdayOf(scope, sql`b.bucket`)} as weekday,
          ${hourOf(scope, sql`b.bucket`)} as hour,
          sum(b.calls)::int as calls
        from (
          select date_bin('15 minutes', o.started_at, timestamptz 'epoch') as bucket,
            count(*) as calls
          from report_conversations o where ${chosenFacts}
          group by 1) b
        group by 1, 2) cell
      ), '[]') as heatmap,
    coalesce((select json_agg(u order by u.form_id) from forms_used u), '[]') as forms,
    coalesce((
      select json_agg(c) from (
        select form_id, name, answers->>name as value, count(*)::int as count
        from form_fields where type in ('select', 'checkbox') and answers ? name
        group by form_id, name, answers->>name) c
      ), '[]') as answers,
    coalesce((
      select json_agg(n) from (
        select form_id, name, count(answers->name)::int as responses,
          avg(case when jsonb_typeof(answers->name) = 'number' then (answers->>name)::float8 end)
            filter (where type = 'rating') as average
        from form_fields group by form_id, name) n
      ), '[]') as numbers`;
  const [totalsRow, agentsRow, extrasRow] = await Promise.all([
    withoutJit(db, totals),
    withoutJit(db, agents),
    withoutJit(db, extras),
  ]);
  const summary: SummaryRow = { ...extrasRow, ...agentsRow, ...totalsRow };
  return toReportSummary(summary, scope, cutOffs);
}

/**
 * Runs one of the summary's queries. The planner's estimate of a range's many rows calls for JIT
 * compilation, which costs more than it saves here (seconds on a busy server): they run without
 * it, and sort the rating forms' answers in memory rather than in temporary files.
 */
async function withoutJit<Row>(db: Kysely<Database>, query: RawBuilder<Row>): Promise<Row> {
  return db.transaction().execute(async (trx) => {
    await sql`set local jit = off`.execute(trx);
    await sql`set local work_mem = '32MB'`.execute(trx);
    const { rows } = await query.execute(trx);
    if (!rows[0]) throw new Error('a summary query answered no row');
    return rows[0];
  });
}

const yesNo: Record<string, string> = { true: 'Yes', false: 'No' };

/** The rating forms' figures, each field labelled as the form labels it. */
function ratingForms(summary: SummaryRow): ReportSummary['ratingForms'] {
  return summary.forms.map((form) => ({
    formId: form.form_id,
    title: form.title,
    responses: form.responses,
    fields: form.fields.map((field) => {
      const numbers = summary.numbers.find(
        (n) => n.form_id === form.form_id && n.name === field.name,
      );
      const counted = summary.answers.filter(
        (a) => a.form_id === form.form_id && a.name === field.name,
      );
      const base = {
        name: field.name,
        label: field.label,
        type: field.type,
        responses: numbers?.responses ?? 0,
      };
      switch (field.type) {
        case 'select':
          return {
            ...base,
            counts: field.options.map((option) => ({
              value: option.value,
              label: option.label,
              count: counted.find((c) => c.value === option.value)?.count ?? 0,
            })),
          };
        case 'checkbox':
          return {
            ...base,
            counts: ['true', 'false'].map((value) => ({
              value,
              label: yesNo[value] ?? value,
              count: counted.find((c) => c.value === value)?.count ?? 0,
            })),
          };
        case 'rating':
          return { ...base, average: numbers?.average ?? null };
        default:
          return base;
      }
    }),
  }));
}

function toReportSummary(summary: SummaryRow, scope: ReportScope, cutOffs: CutOffs): ReportSummary {
  const t = summary.totals;
  const handled = t.answered + t.abandoned;
  return {
    range: { from: scope.from.toISOString(), to: scope.to.toISOString(), timeZone: scope.timeZone },
    calls: t.calls,
    answered: t.answered,
    abandoned: t.abandoned,
    shortAbandoned: t.short_abandoned,
    live: t.live,
    refused: { blocked: t.blocked, outOfQuota: t.out_of_quota },
    abandonmentRate: ratioOf(t.abandoned, handled),
    averageSpeedOfAnswerMs: roundOrNull(t.average_speed_of_answer_ms),
    serviceLevel: {
      thresholdSeconds: cutOffs.serviceLevelSeconds,
      target: cutOffs.serviceLevelTarget,
      ratio: ratioOf(t.answered_within, handled),
    },
    averageHandleTimeMs: roundOrNull(t.average_handle_time_ms),
    holds: {
      count: t.holds,
      calls: t.held_calls,
      totalMs: Math.round(t.hold_ms),
      averageMs: t.holds === 0 ? null : Math.round(t.hold_ms / t.holds),
    },
    transfers: t.transfers,
    csat: {
      responses: t.responses,
      responseRate: ratioOf(t.responses, t.answered),
      score: ratioOf(t.satisfied, t.responses),
      average: t.rating_average,
      distribution: t.distribution,
    },
    ratingForms: ratingForms(summary),
    heatmap: summary.heatmap,
    agents: summary.agents.map((a) => ({
      agentId: a.agent_id,
      name: a.name,
      answered: a.answered,
      averageHandleTimeMs: roundOrNull(a.average_handle_time_ms),
      csat: { responses: a.responses, score: ratioOf(a.satisfied, a.responses) },
      missedOffers: a.missed_offers,
    })),
    quality: {
      measured: t.measured,
      relayed: t.relayed,
      poor: t.poor,
      setupMs: roundedQuantiles(t.setup_quantiles),
      roundTripMs: roundedQuantiles(t.round_trip_quantiles),
      lossRatio: { median: t.loss_quantiles?.[0] ?? null, p95: t.loss_quantiles?.[1] ?? null },
    },
    recordings: {
      ready: t.recordings_ready,
      pending: t.recordings_pending,
      failed: t.recordings_failed,
    },
  };
}
