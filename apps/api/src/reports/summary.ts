import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { FormField, ReportSummary, ReportSummaryQuery } from '@frontdesk/protocol';
import type { Database } from '../db/schema.ts';
import {
  conversationsWith,
  hourOf,
  type ConversationRow,
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
  /** One row per outcome and rating of the chosen conversations, summed up in `totalsOf`. */
  groups: OutcomeGroup[];
  quantiles: {
    /** Median and 95th percentile; `null` with nothing measured. */
    setup_quantiles: Quantiles;
    round_trip_quantiles: Quantiles;
    loss_quantiles: Quantiles;
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

/** The sums of the conversations of one outcome (with status) and one rating. */
type OutcomeGroup = {
  outcome: ConversationRow['outcome'];
  rating: number | null;
  conversations: number;
  wait_ms: number | null;
  answered_within: number;
  handle_ms: number | null;
  handled: number;
  holds: number;
  held_calls: number;
  hold_ms: number;
  transfers: number;
  measured: number;
  relayed: number;
  poor: number;
  recordings_ready: number;
  recordings_pending: number;
  recordings_failed: number;
};

const REFUSED: ReadonlySet<string> = new Set(['blocked', 'outOfQuota']);

/** The totals of the summary: the outcome groups added up. */
function totalsOf(groups: OutcomeGroup[]) {
  const sum = (rows: OutcomeGroup[], pick: (row: OutcomeGroup) => number | null) =>
    rows.reduce((total, row) => total + (pick(row) ?? 0), 0);
  const of = (outcome: string) => groups.filter((g) => g.outcome === outcome);
  const answered = of('answered');
  const taken = groups.filter((g) => !REFUSED.has(g.outcome));
  const rated = answered.filter((g) => g.rating !== null);
  const count = (rows: OutcomeGroup[]) => sum(rows, (g) => g.conversations);
  const answeredCount = count(answered);
  const responses = count(rated);
  const handled = sum(answered, (g) => g.handled);
  return {
    calls: count(taken),
    answered: answeredCount,
    abandoned: count(of('abandoned')),
    shortAbandoned: count(of('shortAbandoned')),
    live: count(of('live')),
    blocked: count(of('blocked')),
    outOfQuota: count(of('outOfQuota')),
    averageSpeedOfAnswerMs:
      answeredCount === 0 ? null : sum(answered, (g) => g.wait_ms) / answeredCount,
    answeredWithin: sum(answered, (g) => g.answered_within),
    averageHandleTimeMs: handled === 0 ? null : sum(answered, (g) => g.handle_ms) / handled,
    holds: sum(groups, (g) => g.holds),
    heldCalls: sum(groups, (g) => g.held_calls),
    holdMs: sum(groups, (g) => g.hold_ms),
    transfers: sum(groups, (g) => g.transfers),
    responses,
    satisfied: count(rated.filter((g) => (g.rating ?? 0) >= 4)),
    ratingAverage:
      responses === 0 ? null : sum(rated, (g) => (g.rating ?? 0) * g.conversations) / responses,
    distribution: [1, 2, 3, 4, 5].map((score) => count(rated.filter((g) => g.rating === score))),
    measured: sum(taken, (g) => g.measured),
    relayed: sum(taken, (g) => g.relayed),
    poor: sum(taken, (g) => g.poor),
    recordingsReady: sum(groups, (g) => g.recordings_ready),
    recordingsPending: sum(groups, (g) => g.recordings_pending),
    recordingsFailed: sum(groups, (g) => g.recordings_failed),
  };
}

const ratioOf = (part: number, whole: number) => (whole === 0 ? null : part / whole);
const roundOrNull = (value: number | null) => (value === null ? null : Math.round(value));
const roundedQuantiles = (quantiles: Quantiles) => ({
  median: roundOrNull(quantiles?.[0] ?? null),
  p95: roundOrNull(quantiles?.[1] ?? null),
});

/**
 * The figures of `GET /api/reports/summary` for the scope, each defined in docs/reports.md, all
 * worked out by PostgreSQL in five queries over the conversations of the range.
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
  // Five queries on five connections, run side by side: the conversations summed by outcome and
  // rating, the quantiles of their quality, each agent's figures, the heatmap, the rating forms.
  const groups = sql<{ groups: OutcomeGroup[] }>`
  with ${conversationsWith({ scope }, cutOffs.shortAbandonSeconds)},
  grouped as (
    -- Plain sums a few dozen groups long rather than a filtered aggregate a figure: the totals
    -- add them up (totalsOf).
    select outcome, rating, count(*)::int as conversations,
      sum(wait_ms)::float8 as wait_ms,
      count(*) filter (where wait_ms <= ${serviceLevelMs})::int as answered_within,
      sum(handle_ms)::float8 as handle_ms, count(handle_ms)::int as handled,
      sum(holds)::int as holds, count(*) filter (where holds > 0)::int as held_calls,
      sum(hold_ms)::float8 as hold_ms, sum(transfers)::int as transfers,
      count(*) filter (where measured)::int as measured,
      count(*) filter (where relayed)::int as relayed,
      count(*) filter (where poor_quality)::int as poor,
      sum(recordings_ready)::int as recordings_ready,
      sum(recordings_pending)::int as recordings_pending,
      sum(recordings_failed)::int as recordings_failed
    from classified where with_agent
    group by outcome, rating
  )
  select coalesce(json_agg(g), '[]') as groups from grouped g`;
  const quantiles = sql<{ quantiles: SummaryRow['quantiles'] }>`
  select row_to_json(q) as quantiles from (
    select
      -- Both quantiles of a measure from one sort of it.
      percentile_cont(array[0.5, 0.95]) within group (order by o.setup_ms) as setup_quantiles,
      percentile_cont(array[0.5, 0.95]) within group (order by o.round_trip_ms)
        as round_trip_quantiles,
      percentile_cont(array[0.5, 0.95]) within group (order by o.loss_ratio) as loss_quantiles
    from report_conversations o where ${chosenFacts} and o.measured) q`;
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
    -- Offers that ran out (a waiting leg's, once its turn has ended). The lists of agents are
    -- counted before they are taken apart: most conversations share one of a few hundred.
    select m.agent_id, sum(m.offers)::int as missed_offers
    from (
      select agent_id, l.conversations as offers
      from (
        select o.missed_offer_agent_ids as agent_ids, count(*) as conversations
        from report_conversations o
        where ${originConditions(scope, undefined)} and cardinality(o.missed_offer_agent_ids) > 0
        group by 1
      ) l
      cross join unnest(l.agent_ids) as agent_id
      union all
      select w.agent_id, 1
      from report_conversations o
      cross join unnest(o.open_offer_agent_ids, o.open_offer_untils) as w(agent_id, until)
      where ${originConditions(scope, undefined)} and cardinality(o.open_offer_agent_ids) > 0
        and w.until <= now()
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
  const forms = sql<Pick<SummaryRow, 'forms' | 'answers' | 'numbers'>>`
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
  const heatmap = sql<Pick<SummaryRow, 'heatmap'>>`
  select coalesce((
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
      ), '[]') as heatmap`;
  const [groupsRow, quantilesRow, agentsRow, heatmapRow, formsRow] = await Promise.all([
    withoutJit(db, groups),
    withoutJit(db, quantiles),
    withoutJit(db, agents),
    withoutJit(db, heatmap),
    withoutJit(db, forms),
  ]);
  const summary: SummaryRow = {
    ...groupsRow,
    ...quantilesRow,
    ...agentsRow,
    ...heatmapRow,
    ...formsRow,
  };
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
    await sql`set local max_parallel_workers_per_gather = 0`.execute(trx);
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
  const t = totalsOf(summary.groups);
  const q = summary.quantiles;
  const handled = t.answered + t.abandoned;
  return {
    range: { from: scope.from.toISOString(), to: scope.to.toISOString(), timeZone: scope.timeZone },
    calls: t.calls,
    answered: t.answered,
    abandoned: t.abandoned,
    shortAbandoned: t.shortAbandoned,
    live: t.live,
    refused: { blocked: t.blocked, outOfQuota: t.outOfQuota },
    abandonmentRate: ratioOf(t.abandoned, handled),
    averageSpeedOfAnswerMs: roundOrNull(t.averageSpeedOfAnswerMs),
    serviceLevel: {
      thresholdSeconds: cutOffs.serviceLevelSeconds,
      target: cutOffs.serviceLevelTarget,
      ratio: ratioOf(t.answeredWithin, handled),
    },
    averageHandleTimeMs: roundOrNull(t.averageHandleTimeMs),
    holds: {
      count: t.holds,
      calls: t.heldCalls,
      totalMs: Math.round(t.holdMs),
      averageMs: t.holds === 0 ? null : Math.round(t.holdMs / t.holds),
    },
    transfers: t.transfers,
    csat: {
      responses: t.responses,
      responseRate: ratioOf(t.responses, t.answered),
      score: ratioOf(t.satisfied, t.responses),
      average: t.ratingAverage,
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
      setupMs: roundedQuantiles(q.setup_quantiles),
      roundTripMs: roundedQuantiles(q.round_trip_quantiles),
      lossRatio: { median: q.loss_quantiles?.[0] ?? null, p95: q.loss_quantiles?.[1] ?? null },
    },
    recordings: {
      ready: t.recordingsReady,
      pending: t.recordingsPending,
      failed: t.recordingsFailed,
    },
  };
}
