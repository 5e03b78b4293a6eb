// The reports benchmark's company: a contact centre's 90 days of calls, written into the bench
// stack's own schema (dropped with it) by a handful of set-based statements, so 100,000
// conversations and their events, quality reports, ratings and recordings take seconds.
import type pg from 'pg';
import { DEMO_RATING_QUESTIONS, findDemoLogin } from '@frontdesk/api/seed';
import { connectToSchema } from '../stack.ts';

/** What the benchmark signs in with and asks for. */
export type SeededCompany = {
  companyId: number;
  adminEmail: string;
  password: string;
  timeZone: string;
  /** The seeded days, in the company's time zone: the first and today (both inclusive). */
  firstDay: string;
  lastDay: string;
  /** Rows written per table, and how long it took. */
  rows: Record<string, number>;
  seconds: number;
};

export type SeedOptions = {
  conversations: number;
  days: number;
};

const TIME_ZONE = 'Europe/London';
const ADMIN_EMAIL = 'admin@bench-reports.example';
/**
 * The stack seeds the demo companies (README, "Try it"); the bench admin takes the hash of a
 * demo admin's password, so no scrypt runs here and the bench signs in as a demo login does.
 */
const DEMO_ADMIN = findDemoLogin('zoe@frontdesk.demo');
const CATEGORIES = ['Sales', 'Support', 'Billing', 'Returns'];
/** Three agents serve each category; the first of the next category helps out in the one before. */
const AGENTS_PER_CATEGORY = 3;
/** Returning guests: 1.4 conversations a guest, so two guests in five call twice. */
const CONVERSATIONS_PER_GUEST = 1.4;

/**
 * Calls by hour of the day in the company's time zone (relative weights), on weekdays and at
 * weekends: a morning and an afternoon peak within Monday–Friday 08:00–20:00 (its opening hours),
 * a trickle at night and at weekends, so `businessHours=true` leaves some out.
 */
const WEEKDAY_HOURS = [
  0.3, 0.2, 0.1, 0.1, 0.1, 0.2, 0.5, 1.5, 5, 9, 11, 12, 10, 9, 11, 12, 10, 8, 6, 4, 2, 1, 0.6, 0.4,
];
const WEEKEND_HOURS = [
  0.2, 0.1, 0.1, 0.1, 0.1, 0.1, 0.2, 0.4, 1, 2, 3, 3, 3, 3, 3, 3, 2.5, 2, 1.5, 1, 0.8, 0.5, 0.3,
  0.2,
];

/**
 * SQL for the first of `count` ids taken at once from `table`'s id sequence (column `first`):
 * one sequence call for a whole table's rows instead of one per row.
 */
const RESERVE_IDS = (table: string, count: string) =>
  `setval(pg_get_serial_sequence('${table}', 'id'),
          nextval(pg_get_serial_sequence('${table}', 'id')) + ${count} - 1) - (${count}) + 1
     as first`;

/** The company, its opening hours, categories, team and rating form. */
async function seedCompany(client: pg.Client): Promise<{ companyId: number; formId: number }> {
  const company = await client.query<{ id: number }>(
    `insert into companies (name, conference_name, room_password, settings)
     values ('Bench Reports', 'bench-reports', md5(random()::text),
             '{"websiteTitle": "Bench Reports", "ratingStyle": "stars"}')
     returning id`,
  );
  const companyId = company.rows[0]?.id;
  if (companyId === undefined) throw new Error('the bench company was not created');
  await client.query(`insert into schedules (company_id, time_zone) values ($1, $2)`, [
    companyId,
    TIME_ZONE,
  ]);
  await client.query(
    `insert into schedule_hours (company_id, weekday, opens, closes)
     select $1, weekday, '08:00', '20:00' from generate_series(1, 5) as weekday`,
    [companyId],
  );
  await client.query(
    `create temp table bench_category on commit drop as
     with added as (
       insert into categories (company_id, name, room_name, position)
       select $1, name, 'bench-reports-' || lower(name), position - 1
       from unnest($2::text[]) with ordinality as c(name, position)
       returning id, position + 1 as idx
     )
     select idx, id as category_id from added`,
    [companyId, CATEGORIES],
  );
  const password = await client.query<{ password_hash: string }>(
    `select password_hash from staff where email = $1`,
    [DEMO_ADMIN.email],
  );
  const passwordHash = password.rows[0]?.password_hash;
  if (!passwordHash) throw new Error(`${DEMO_ADMIN.email} is not seeded: is seedDemo off?`);
  await client.query(
    `insert into staff (company_id, email, name, role, password_hash)
     values ($1, $2, 'Bench Admin', 'admin', $3)`,
    [companyId, ADMIN_EMAIL, passwordHash],
  );
  // Agent idx 1–3 serve category 1, 4–6 category 2, …
  await client.query(
    `create temp table bench_agent on commit drop as
     with added as (
       insert into staff (company_id, email, name, role, password_hash)
       select $1, 'agent' || idx || '@bench-reports.example', 'Agent ' || idx, 'agent', $2
       from generate_series(1, $3::int) as idx
       returning id, (regexp_match(email, '^agent([0-9]+)@'))[1]::int as idx
     )
     select idx, id as staff_id, (idx - 1) / $4 + 1 as category_idx from added`,
    [companyId, passwordHash, CATEGORIES.length * AGENTS_PER_CATEGORY, AGENTS_PER_CATEGORY],
  );
  await client.query(
    `insert into staff_categories (staff_id, category_id)
     select a.staff_id, c.category_id from bench_agent a join bench_category c
       on c.idx = a.category_idx
       or (a.idx % $1 = 1 and c.idx = a.category_idx - 1)`,
    [AGENTS_PER_CATEGORY],
  );
  const form = await client.query<{ id: number }>(
    `insert into forms (company_id, kind, title, fields) values ($1, 'rating', 'Rate your call', $2)
     returning id`,
    [companyId, JSON.stringify(DEMO_RATING_QUESTIONS)],
  );
  const formId = form.rows[0]?.id;
  if (formId === undefined) throw new Error('the bench rating form was not created');
  return { companyId, formId };
}

/**
 * One row per conversation with every draw it needs, from hourly slots weighted like a contact
 * centre's day, so the later inserts only read it. Proportions: 80 % answered (waits 2–120 s,
 * most short), 12 % abandoned after 5 s and 5 % before, 2.5 % refused (blocked, out of quota);
 * of the answered, 13 % held (some twice), 5 % transferred (a second leg), 30 % rated, 3 %
 * recorded.
 */
async function planConversations(
  client: pg.Client,
  options: SeedOptions & { companyId: number },
): Promise<void> {
  await client.query(
    `create temp table bench_slot on commit drop as
     with bounds as (
       select (date_trunc('day', now() at time zone $1) - make_interval(days => $2 - 1))
                at time zone $1 as first,
              date_trunc('hour', now()) as last
     ), hours as (
       select at, extract(isodow from at at time zone $1) as weekday,
              extract(hour from at at time zone $1)::int as hour
       from bounds, generate_series(first, last - interval '1 hour', interval '1 hour') as at
     ), weighted as (
       select at, case when weekday <= 5 then ($3::float8[])[hour + 1]
                       else ($4::float8[])[hour + 1] end as weight
       from hours
     ), cumulative as (
       select at, weight, sum(weight) over (order by at) as upto, sum(weight) over () as total
       from weighted
     )
     -- The difference of the rounded running totals: the slots add up to exactly $5.
     select at, (floor($5 * upto / total) - floor($5 * (upto - weight) / total))::int as calls
     from cumulative`,
    [TIME_ZONE, options.days, WEEKDAY_HOURS, WEEKEND_HOURS, options.conversations],
  );
  await client.query(
    `create temp table bench_draw on commit drop as
     select row_number() over (order by started_at)::int as n, started_at,
            random() as r_outcome, random() as r_wait, random() as r_handle,
            random() as r_category, random() as r_agent, random() as r_hold,
            random() as r_hold_length, random() as r_transfer, random() as r_rating, random() as r_form,
            random() as r_recording, random() as r_type, random() as r_end
     from (select s.at + random() * interval '1 hour' as started_at
           from bench_slot s, generate_series(1, s.calls)
           -- offset 0: each started_at drawn once, whichever way the window is planned.
           offset 0) as t`,
  );
  await client.query(
    `create temp table bench_guest on commit drop as
     with wanted as (select ceil($1 / $2::float8)::int as guests),
     reserved as (select ${RESERVE_IDS('guests', 'guests')} from wanted)
     select g, (first + g - 1)::int as guest_id,
            -- A registration's name ("g" and 25 of a–z, 2–7): digits spelled as letters a–j.
            'gbenchr' || translate(lpad(g::text, 19, '0'), '0123456789', 'abcdefghij')
              as username
     from reserved, wanted, generate_series(1, wanted.guests) as g`,
    [options.conversations, CONVERSATIONS_PER_GUEST],
  );
  await client.query(
    `create temp table bench_conv on commit drop as
     with outcome as (
       select d.*,
              case when r_outcome < 0.020 then 'blocked'
                   when r_outcome < 0.025 then 'outOfQuota'
                   when r_outcome < 0.075 then 'shortAbandoned'
                   when r_outcome < 0.195 then 'abandoned'
                   else 'answered' end as outcome,
              case when r_category < 0.4 then 1 when r_category < 0.7 then 2
                   when r_category < 0.9 then 3 else 4 end as category_idx
       from bench_draw d
     ), timing as (
       select o.*,
              case outcome when 'answered' then 2 + 118 * r_wait ^ 4
                           when 'shortAbandoned' then 0.5 + 4.4 * r_wait
                           when 'abandoned' then 5 + 295 * r_wait ^ 2 end as wait_s,
              case when outcome = 'answered' then 30 + 1170 * r_handle ^ 2 end as handle_s,
              outcome = 'answered' and r_transfer < 0.05 as transferred,
              case when outcome <> 'answered' then 0 when r_hold < 0.03 then 2
                   when r_hold < 0.13 then 1 else 0 end as holds,
              (category_idx - 1) * $1 + floor(r_agent * $1)::int + 1 as agent_idx
       from outcome o
     ), legs as (
       select count(*) as roots, count(*) filter (where transferred) as second_legs from timing
     ), reserved as (
       select roots, ${RESERVE_IDS('call_reports', 'roots + second_legs')} from legs
     )
     select t.*, g.guest_id, g.username, (first + n - 1)::int as report_id,
            g.username || '--c' || n as call_id,
            -- Second legs take the ids after the roots', in the order of their conversations.
            case when transferred then (first + roots - 1 + count(*) filter (where transferred)
              over (order by n))::int end as leg2_id,
            started_at + wait_s * interval '1 second' as answered_or_left_at,
            -- A transfer hands the guest to the next agent (of the next category half the time).
            case when transferred then agent_idx % ($1 * $2) + 1 end as agent2_idx,
            case when transferred and r_transfer < 0.025 then category_idx % $2 + 1
                 when transferred then category_idx end as category2_idx,
            case when outcome = 'answered' and r_rating < 0.3 then
              case when r_rating < 0.015 then 1 when r_rating < 0.03 then 2
                   when r_rating < 0.06 then 3 when r_rating < 0.15 then 4 else 5 end
            end as rating
     from timing t
     cross join reserved
     join bench_guest g on g.g = (t.n::bigint * 7919) % (select count(*) from bench_guest) + 1`,
    [AGENTS_PER_CATEGORY, CATEGORIES.length],
  );
}

/** Writes the planned conversations into the API's tables; returns the rows written per table. */
async function writeConversations(
  client: pg.Client,
  companyId: number,
  formId: number,
): Promise<Record<string, number>> {
  const rows: Record<string, number> = {};
  const run = async (table: string, text: string, values: unknown[] = []) => {
    const result = await client.query(text, values);
    rows[table] = (rows[table] ?? 0) + (result.rowCount ?? 0);
  };
  await run(
    'guests',
    `insert into guests (id, company_id, username, fingerprint, jabberusername, created_at)
     select guest_id, $1, username, 'benchvisitor' || g, 'g' || $1::int || '-' || username,
            now() - interval '100 days'
     from bench_guest`,
    [companyId],
  );
  // The first leg of every conversation: a transferred one ends where its second leg begins,
  // 40 % into its handle time.
  await run(
    'call_reports',
    `insert into call_reports (id, company_id, guest_id, call_id, origin_call_id, category_id,
       source, status, success, call_type, rating, created_at, call_initiated_at, agent_id,
       answered_at, ended_at, end_reason, ended_by, guest_exit_at, transfer_to_staff_id,
       transfer_to_category_id)
     select v.report_id, $1, v.guest_id, v.call_id, v.call_id, c.category_id,
            case when v.n % 10 < 7 then 'widget' else 'site' end,
            case v.outcome when 'blocked' then 'blocked' when 'outOfQuota' then 'outOfQuota'
                           else 'ok' end,
            case when v.outcome = 'answered' then true end,
            case when v.outcome in ('blocked', 'outOfQuota') then null
                 when v.r_type < 0.7 then 'video' else 'voice' end,
            case when not v.transferred then v.rating end,
            v.started_at,
            case when v.outcome not in ('blocked', 'outOfQuota')
                 then v.started_at + interval '300 milliseconds' end,
            a.staff_id,
            case when v.outcome = 'answered' then v.answered_or_left_at end,
            e.ended_at,
            case when v.outcome = 'answered' then 'completed'
                 when e.ended_at is not null then 'abandoned' end,
            case when v.transferred then 'server' when v.outcome = 'answered' and v.r_end < 0.6
                 then 'agent' when e.ended_at is not null then 'guest' end,
            case when not v.transferred then e.ended_at + interval '20 seconds' end,
            case when v.transferred and v.category2_idx = v.category_idx then a2.staff_id end,
            case when v.category2_idx <> v.category_idx then c2.category_id end
     from bench_conv v
     join bench_category c on c.idx = v.category_idx
     left join bench_agent a on a.idx = v.agent_idx and v.outcome = 'answered'
     left join bench_agent a2 on a2.idx = v.agent2_idx
     left join bench_category c2 on c2.idx = v.category2_idx
     cross join lateral (
       select case when v.outcome in ('blocked', 'outOfQuota') then null
                   when v.transferred then v.answered_or_left_at + 0.4 * v.handle_s * interval '1 second'
                   when v.outcome = 'answered' then v.answered_or_left_at + v.handle_s * interval '1 second'
                   else v.answered_or_left_at end as ended_at
     ) e
     -- In id (and time) order, so each index grows at its end rather than all over.
     order by v.report_id`,
    [companyId],
  );
  // The second leg of a transfer (hold-call): waits 2–40 s for the next agent, who keeps the
  // guest for the rest of the handle time and gets the rating.
  await run(
    'call_reports',
    `insert into call_reports (id, company_id, guest_id, call_id, origin_call_id, previous_call_id,
       category_id, source, status, success, call_type, rating, created_at, call_initiated_at,
       agent_id, answered_at, ended_at, end_reason, ended_by, guest_exit_at)
     select v.leg2_id, $1, v.guest_id, v.call_id || 't', v.call_id, v.call_id, c.category_id,
            case when v.n % 10 < 7 then 'widget' else 'site' end, 'ok', true,
            case when v.r_type < 0.7 then 'video' else 'voice' end, v.rating,
            l.begins, l.begins, a.staff_id, l.answered,
            l.answered + 0.6 * v.handle_s * interval '1 second', 'completed',
            case when v.r_end < 0.6 then 'agent' else 'guest' end,
            l.answered + 0.6 * v.handle_s * interval '1 second' + interval '20 seconds'
     from bench_conv v
     join bench_category c on c.idx = v.category2_idx
     join bench_agent a on a.idx = v.agent2_idx
     cross join lateral (
       select v.answered_or_left_at + 0.4 * v.handle_s * interval '1 second' as begins,
              v.answered_or_left_at + (0.4 * v.handle_s + 2 + 38 * v.r_wait) * interval '1 second'
                as answered
     ) l
     where v.transferred
     order by v.leg2_id`,
    [companyId],
  );
  // Round robin's turns of 20 s (ROUND_ROBIN_OFFER_MS) while a call waited, at most six: the
  // answering agent had the last turn, the two others of the category the turns before it.
  await run(
    'call_events',
    `insert into call_events (company_id, call_report_id, kind, staff_id, at, until)
     select $1, v.report_id, 'offered', a.staff_id, t.at,
            least(t.at + interval '20 seconds', v.answered_or_left_at)
     from bench_conv v
     cross join lateral (select least(6, greatest(1, ceil(v.wait_s / 20)))::int as turns) n
     cross join lateral generate_series(0, n.turns - 1) as k
     cross join lateral (select v.started_at + k * interval '20 seconds' as at) t
     join bench_agent a on a.idx = (v.category_idx - 1) * $2
       + ((v.agent_idx - 1) % $2 - (n.turns - 1 - k) + 6 * $2) % $2 + 1
     where v.wait_s is not null`,
    [companyId, AGENTS_PER_CATEGORY],
  );
  await run(
    'call_events',
    `insert into call_events (company_id, call_report_id, kind, staff_id, at, until)
     select $1, v.leg2_id, 'offered', r.agent_id, r.created_at, r.answered_at
     from bench_conv v join call_reports r on r.id = v.leg2_id`,
    [companyId],
  );
  // Holds 10 % and 25 % into the handle time, each 15–120 s (and never past an eighth of it).
  await run(
    'call_events',
    `insert into call_events (company_id, call_report_id, kind, staff_id, at)
     select $1, v.report_id, kind, a.staff_id,
            v.answered_or_left_at + (h.starts + case kind when 'resumed' then h.lasts else 0 end)
              * interval '1 second'
     from bench_conv v
     join bench_agent a on a.idx = v.agent_idx
     cross join lateral generate_series(1, v.holds) as hold
     cross join lateral (
       select v.handle_s * case hold when 1 then 0.1 else 0.25 end as starts,
              least(15 + 105 * v.r_hold_length, v.handle_s / 8) as lasts
     ) h
     cross join (values ('held'), ('resumed')) as kinds(kind)`,
    [companyId],
  );
  await run(
    'call_events',
    `insert into call_events (company_id, call_report_id, kind, staff_id, at, details)
     select $1, v.report_id, 'transfer_requested', r.agent_id, r.ended_at - interval '1 second',
            case when r.transfer_to_staff_id is not null
                 then jsonb_build_object('toStaffId', r.transfer_to_staff_id)
                 else jsonb_build_object('toCategoryId', r.transfer_to_category_id) end
     from bench_conv v join call_reports r on r.id = v.report_id
     where v.transferred`,
    [companyId],
  );
  // Four in five who rate also fill in the rating form.
  await run(
    'rating_submissions',
    `insert into rating_submissions (call_report_id, form_id, guest_id, answers, created_at)
     select r.id, $1, r.guest_id,
            jsonb_build_object('score', r.rating, 'resolved',
              case when r.rating >= 4 then 'yes' when r.rating = 3 then 'partly' else 'no' end),
            r.ended_at + interval '15 seconds'
     from bench_conv v join call_reports r on r.id = coalesce(v.leg2_id, v.report_id)
     where v.rating is not null and v.r_form < 0.8`,
    [formId],
  );
  // Both sides report their media on every answered leg: 12 % through a TURN relay, 3 % of
  // calls lossy, a few slow to set up or with ICE failing.
  await run(
    'call_quality',
    `insert into call_quality (call_report_id, company_id, role, reported_at, setup_ms,
       local_candidate_type, remote_candidate_type, relay_protocol, packets_received,
       packets_lost, jitter_ms, round_trip_ms, send_kbps, receive_kbps, reconnects, ice_failed)
     select id, $1, side, ended_at,
            (300 + 2700 * shape ^ 2 + case when r < 0.03 then 4000 else 0 end)::int,
            local_type, case when relayed < 0.5 then 'host' else 'srflx' end,
            case when local_type <> 'relay' then null when shape < 0.7 then 'udp'
                 when shape < 0.95 then 'tcp' else 'tls' end,
            received,
            round(received * case when r < 0.03 then 0.05 + 0.1 * shape else 0.004 * shape end),
            2 + 28 * shape,
            case when local_type = 'relay' then 40 + 260 * shape else 5 + 75 * shape end
              + case when r < 0.01 then 400 else 0 end,
            300 + 1200 * shape, 285 + 1140 * shape,
            case when r < 0.02 then 1 else 0 end, r < 0.005
     from (
       select d.*, case when relayed < 0.12 then 'relay' when relayed < 0.5 then 'host'
                        else 'srflx' end as local_type,
              (extract(epoch from ended_at - answered_at) * 80)::bigint as received
       from (
         -- offset 0 keeps the draws in this subquery, one set per row, however the rest is planned.
         select r.id, r.answered_at, r.ended_at, side,
                random() as r, random() as relayed, random() as shape
         from call_reports r cross join (values ('guest'), ('agent')) as sides(side)
         where r.company_id = $1 and r.answered_at is not null
         offset 0
       ) as d
     ) as q`,
    [companyId],
  );
  await run(
    'call_recordings',
    `insert into call_recordings (call_report_id, company_id, status, file_name, size_bytes,
       duration_ms, attempts, last_error, created_at, updated_at)
     select v.report_id, $1, s.status,
            case when s.status = 'ready' then v.call_id || '.mp4' end,
            case when s.status = 'ready' then (v.handle_s * 150000)::bigint end,
            case when s.status = 'ready' then (v.handle_s * 1000)::int end,
            case s.status when 'failed' then 3 when 'pending' then 0 else 1 end,
            case when s.status = 'failed' then 'ffmpeg exited with code 1' end,
            r.ended_at, r.ended_at + interval '1 minute'
     from bench_conv v
     join call_reports r on r.id = v.report_id
     cross join lateral (
       select case when v.r_recording < 0.027 then 'ready' when v.r_recording < 0.0285 then 'failed'
                   when v.r_recording < 0.0295 then 'empty' else 'pending' end as status
     ) s
     where v.outcome = 'answered' and v.r_recording < 0.03`,
    [companyId],
  );
  return rows;
}

/**
 * Seeds the reports company into `schema` of `databaseUrl` in one transaction, then vacuums and
 * analyses the schema's tables, as autovacuum would on a database that grew to this size.
 */
export async function seedReportsCompany(
  databaseUrl: string,
  schema: string,
  options: SeedOptions,
): Promise<SeededCompany> {
  const startedAt = performance.now();
  const client = await connectToSchema(databaseUrl, schema);
  try {
    await client.query('begin');
    // The same draws every run, so two runs' figures describe the same calls.
    await client.query('select setseed(0.17)');
    // Every reference points at a row this transaction made by the same joins, so the foreign
    // keys' triggers (a locking look-up per row and reference, most of the time otherwise) are
    // off, as pg_restore's --disable-triggers does; the check constraints still hold each row.
    // The triggers that keep the reports' per-conversation rows (migration 0020) are `enable
    // always` and still fire. (A superuser's setting: the stack reaches its database as
    // `postgres`.)
    await client.query('set local session_replication_role = replica');
    // Compiling these one-off statements costs more than it saves; their sorts fit in memory.
    await client.query('set local jit = off');
    await client.query(`set local work_mem = '64MB'`);
    const { companyId, formId } = await seedCompany(client);
    await planConversations(client, { ...options, companyId });
    const rows = await writeConversations(client, companyId, formId);
    const days = await client.query<{ first: string; last: string }>(
      `select to_char(min(created_at) at time zone $1, 'YYYY-MM-DD') as first,
              to_char(now() at time zone $1, 'YYYY-MM-DD') as last
       from call_reports where company_id = $2`,
      [TIME_ZONE, companyId],
    );
    await client.query('commit');
    // What autovacuum would have done to tables grown this big: fresh statistics for the
    // planner and visibility maps for index-only scans. Every table of the run's schema, so
    // those the API derives from these are included.
    const tables = await client.query<{ name: string }>(
      `select format('%I', tablename) as name from pg_tables where schemaname = $1`,
      [schema],
    );
    await client.query(`vacuum (analyze) ${tables.rows.map((table) => table.name).join(', ')}`);
    // The facts' triggers rewrite a conversation's row once per statement above that touches it
    // (its legs, events, quality, ratings, recordings), and no version can be reclaimed while
    // the one transaction runs: the table ends three times its live size. On a live server,
    // calls come a few at a time and autovacuum hands the dead versions' space to the next
    // rows; the table the summary reads there is the compact one this makes.
    await client.query('vacuum (full, analyze) report_conversations');
    const range = days.rows[0];
    if (!range) throw new Error('the bench company has no calls');
    return {
      companyId,
      adminEmail: ADMIN_EMAIL,
      password: DEMO_ADMIN.password,
      timeZone: TIME_ZONE,
      firstDay: range.first,
      lastDay: range.last,
      rows,
      seconds: (performance.now() - startedAt) / 1000,
    };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
