import { sql, type Kysely } from 'kysely';

/**
 * Reports (issue 17, docs/reports.md "How the figures are kept"): one narrow row a conversation
 * with what its legs, holds, quality reports and recordings tell, so a range's figures are one
 * scan of its rows instead of a join of every table a call writes.
 *
 * The rows are kept by the database itself: statement-level triggers on each table they read
 * recompute the conversations a statement touched, in one set-based upsert, so a bulk insert
 * costs one pass and no code path that writes a call can forget them. Only what does not depend
 * on a report's question is kept (not its time zone, agent or short-abandon cut-off), and a hold
 * still running keeps its start, so the reports add the time it has run so far.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table report_conversations (
      origin_id integer primary key references call_reports (id) on delete cascade,
      company_id integer not null,
      call_id text not null,
      started_at timestamptz not null,
      status text not null,
      category_id integer,
      guest_id integer not null,
      call_type text,
      answered_at timestamptz,
      ended_at timestamptz,
      first_agent_id integer,
      answered_leg_agent_ids integer[] not null,
      answered_leg_handle_ms numeric[] not null,
      answered_leg_ratings smallint[] not null,
      missed_offer_agent_ids integer[] not null,
      open_offer_agent_ids integer[] not null,
      open_offer_untils timestamptz[] not null,
      leg_handle_ms numeric,
      rating smallint,
      transfers integer not null,
      holds integer not null,
      ended_hold_ms numeric not null,
      -- ended_hold_ms as a whole number: the holds' time when none is running (most).
      hold_ms bigint not null,
      open_holds_since timestamptz[] not null,
      rating_submission_ids integer[] not null,
      recorded boolean not null,
      recordings_ready integer not null,
      recordings_pending integer not null,
      recordings_failed integer not null,
      measured boolean not null,
      relayed boolean,
      setup_ms integer,
      round_trip_ms real,
      loss_ratio double precision,
      poor_quality boolean not null
    )`.execute(db);
  await sql`
    create index report_conversations_company_started
    on report_conversations (company_id, started_at, origin_id)`.execute(db);

  // The facts of the conversations whose origin report ids are given, from the tables a call
  // writes; each fact as docs/reports.md defines it.
  await sql`
    create function report_conversations_refresh(origin_ids integer[]) returns void
    language sql as $$
    with origins as (
      select o.* from call_reports o
      where o.id = any (origin_ids) and o.previous_call_id is null
    ),
    legs as (
      select o.id as origin_id, l.*,
        -- A transfer is a leg whose previous leg named where to send the guest.
        coalesce(p.transfer_to_staff_id is not null or p.transfer_to_category_id is not null,
          false) as transferred
      from origins o
      join call_reports l on l.origin_call_id = o.call_id
      left join call_reports p on p.call_id = l.previous_call_id
    ),
    leg_facts as (
      select l.origin_id,
        min(l.answered_at) as answered_at,
        (min(array[extract(epoch from l.answered_at), l.agent_id])
          filter (where l.answered_at is not null))[2]::int as first_agent_id,
        -- The answered legs, side by side: who answered, how long they kept the guest, the
        -- guest's rating (the per-agent figures).
        coalesce(array_agg(l.agent_id order by l.id)
          filter (where l.answered_at is not null and l.agent_id is not null), '{}')
          as answered_leg_agent_ids,
        coalesce(array_agg(extract(epoch from l.ended_at - l.answered_at) * 1000 order by l.id)
          filter (where l.answered_at is not null and l.agent_id is not null), '{}')
          as answered_leg_handle_ms,
        coalesce(array_agg(l.rating order by l.id)
          filter (where l.answered_at is not null and l.agent_id is not null), '{}')
          as answered_leg_ratings,
        -- A leg ends when the next begins: the conversation has ended when all its legs have.
        case when bool_and(l.ended_at is not null) then max(l.ended_at) end as ended_at,
        sum(extract(epoch from l.ended_at - l.answered_at) * 1000)
          filter (where l.answered_at is not null and l.ended_at is not null) as leg_handle_ms,
        -- The rating of the latest leg the guest rated.
        (max(array[extract(epoch from l.created_at), l.id, l.rating])
          filter (where l.rating is not null))[3]::int as rating,
        -- Video when any leg was: its guest had a camera on.
        case when bool_or(l.call_type = 'video') then 'video' else max(l.call_type) end
          as call_type,
        count(*) filter (where l.transferred)::int as transfers
      from legs l
      group by l.origin_id
    ),
    hold_events as (
      select l.origin_id, l.ended_at, e.kind, e.at,
        lag(e.kind) over w as previous_kind, lead(e.kind) over w as next_kind,
        lead(e.at) over w as next_at
      from legs l
      join call_events e on e.call_report_id = l.id and e.kind in ('held', 'resumed')
      window w as (partition by e.call_report_id order by e.at, e.id)
    ),
    hold_facts as (
      -- A hold lasts until the agent resumes, else until its leg ends, else it runs on (its
      -- start is kept); holding again while on hold is the same hold.
      select h.origin_id, count(*)::int as holds,
        coalesce(sum(greatest(0, extract(epoch from
          coalesce(case when h.next_kind = 'resumed' then h.next_at end, h.ended_at) - h.at)
          * 1000)), 0) as ended_hold_ms,
        coalesce(array_agg(h.at) filter (where h.next_kind is distinct from 'resumed'
          and h.ended_at is null), '{}') as open_holds_since
      from hold_events h
      where h.kind = 'held' and h.previous_kind is distinct from 'held'
      group by h.origin_id
    ),
    offer_facts as (
      -- An offer ran out when its turn ended before anyone answered the leg and before it
      -- ended; while the leg waits, its offers' ends are kept to be told against the clock.
      select l.origin_id,
        coalesce(array_agg(e.staff_id) filter (where e.until <= coalesce(l.answered_at, l.ended_at)),
          '{}') as missed_offer_agent_ids,
        coalesce(array_agg(e.staff_id order by e.id) filter (where l.answered_at is null
          and l.ended_at is null and e.until is not null), '{}') as open_offer_agent_ids,
        coalesce(array_agg(e.until order by e.id) filter (where l.answered_at is null
          and l.ended_at is null and e.until is not null), '{}') as open_offer_untils
      from legs l
      join call_events e on e.call_report_id = l.id and e.kind = 'offered'
        and e.staff_id is not null
      group by l.origin_id
    ),
    submission_facts as (
      -- The rating forms the guest sent on its legs (the summary counts their answers).
      select l.origin_id, array_agg(rs.id order by rs.id) as rating_submission_ids
      from legs l join rating_submissions rs on rs.call_report_id = l.id
      group by l.origin_id
    ),
    quality_facts as (
      select l.origin_id,
        bool_or(q.local_candidate_type = 'relay' or q.remote_candidate_type = 'relay') as relayed,
        max(q.setup_ms) as setup_ms,
        max(q.round_trip_ms) as round_trip_ms,
        bool_or(q.ice_failed) as ice_failed,
        sum(q.packets_lost)::float8 / nullif(sum(q.packets_lost + q.packets_received), 0)
          as loss_ratio
      from legs l join call_quality q on q.call_report_id = l.id
      group by l.origin_id
    ),
    recording_facts as (
      -- Recorded: some leg's recording was kept, whatever became of its merge.
      select l.origin_id,
        count(*) filter (where r.status = 'ready')::int as ready,
        count(*) filter (where r.status = 'pending')::int as pending,
        count(*) filter (where r.status = 'failed')::int as failed
      from legs l join call_recordings r on r.call_report_id = l.id
      group by l.origin_id
    )
    insert into report_conversations as c (origin_id, company_id, call_id, started_at, status,
      category_id, guest_id, call_type, answered_at, ended_at, first_agent_id,
      answered_leg_agent_ids, answered_leg_handle_ms, answered_leg_ratings, missed_offer_agent_ids,
      open_offer_agent_ids, open_offer_untils, leg_handle_ms, rating, transfers, holds, ended_hold_ms,
      hold_ms, open_holds_since, rating_submission_ids, recorded, recordings_ready, recordings_pending, recordings_failed,
      measured, relayed, setup_ms, round_trip_ms, loss_ratio, poor_quality)
    select o.id, o.company_id, o.call_id, o.created_at, o.status, o.category_id, o.guest_id,
      f.call_type, f.answered_at, f.ended_at, f.first_agent_id, f.answered_leg_agent_ids,
      f.answered_leg_handle_ms, f.answered_leg_ratings,
      coalesce(m.missed_offer_agent_ids, '{}'), coalesce(m.open_offer_agent_ids, '{}'),
      coalesce(m.open_offer_untils, '{}'),
      f.leg_handle_ms, f.rating, f.transfers, coalesce(h.holds, 0),
      coalesce(h.ended_hold_ms, 0), coalesce(h.ended_hold_ms, 0)::bigint,
      coalesce(h.open_holds_since, '{}'), coalesce(s.rating_submission_ids, '{}'),
      r.origin_id is not null, coalesce(r.ready, 0), coalesce(r.pending, 0),
      coalesce(r.failed, 0),
      q.origin_id is not null,
      case when q.origin_id is not null then coalesce(q.relayed, false) end,
      q.setup_ms, q.round_trip_ms, q.loss_ratio,
      coalesce(q.ice_failed or q.loss_ratio > 0.05 or q.round_trip_ms > 400 or q.setup_ms > 5000,
        false)
    from origins o
    join leg_facts f on f.origin_id = o.id
    left join hold_facts h on h.origin_id = o.id
    left join offer_facts m on m.origin_id = o.id
    left join submission_facts s on s.origin_id = o.id
    left join quality_facts q on q.origin_id = o.id
    left join recording_facts r on r.origin_id = o.id
    on conflict (origin_id) do update set
      company_id = excluded.company_id, call_id = excluded.call_id,
      started_at = excluded.started_at, status = excluded.status,
      category_id = excluded.category_id, guest_id = excluded.guest_id,
      call_type = excluded.call_type, answered_at = excluded.answered_at,
      ended_at = excluded.ended_at, first_agent_id = excluded.first_agent_id,
      answered_leg_agent_ids = excluded.answered_leg_agent_ids,
      answered_leg_handle_ms = excluded.answered_leg_handle_ms,
      answered_leg_ratings = excluded.answered_leg_ratings,
      missed_offer_agent_ids = excluded.missed_offer_agent_ids,
      open_offer_agent_ids = excluded.open_offer_agent_ids,
      open_offer_untils = excluded.open_offer_untils,
      leg_handle_ms = excluded.leg_handle_ms, rating = excluded.rating,
      transfers = excluded.transfers, holds = excluded.holds,
      ended_hold_ms = excluded.ended_hold_ms, hold_ms = excluded.hold_ms,
      open_holds_since = excluded.open_holds_since,
      rating_submission_ids = excluded.rating_submission_ids,
      recorded = excluded.recorded, recordings_ready = excluded.recordings_ready,
      recordings_pending = excluded.recordings_pending,
      recordings_failed = excluded.recordings_failed, measured = excluded.measured,
      relayed = excluded.relayed, setup_ms = excluded.setup_ms,
      round_trip_ms = excluded.round_trip_ms, loss_ratio = excluded.loss_ratio,
      poor_quality = excluded.poor_quality
    $$`.execute(db);

  // The triggers: each recomputes the conversations of the rows its statement wrote or removed.
  await sql`
    create function report_conversations_of_reports() returns trigger
    language plpgsql as $$
    begin
      perform report_conversations_refresh(array(
        select o.id from call_reports o
        where o.call_id in (select origin_call_id from changed_rows)));
      return null;
    end $$`.execute(db);
  await sql`
    create function report_conversations_of_legs() returns trigger
    language plpgsql as $$
    begin
      perform report_conversations_refresh(array(
        select o.id from call_reports o
        where o.call_id in (
          select l.origin_call_id from call_reports l
          where l.id in (select call_report_id from changed_rows))));
      return null;
    end $$`.execute(db);
  // A transfer request changes no fact: only offers and holds wake the refresh.
  await sql`
    create function report_conversations_of_events() returns trigger
    language plpgsql as $$
    begin
      perform report_conversations_refresh(array(
        select o.id from call_reports o
        where o.call_id in (
          select l.origin_call_id from call_reports l
          where l.id in (
            select call_report_id from changed_rows
            where kind in ('offered', 'held', 'resumed')))));
      return null;
    end $$`.execute(db);

  const watched: [table: string, refresh: string][] = [
    ['call_reports', 'report_conversations_of_reports'],
    ['call_events', 'report_conversations_of_events'],
    ['call_quality', 'report_conversations_of_legs'],
    ['call_recordings', 'report_conversations_of_legs'],
    ['rating_submissions', 'report_conversations_of_legs'],
  ];
  for (const [table, refresh] of watched) {
    // A trigger with a transition table answers one kind of statement.
    for (const [event, transition] of [
      ['insert', 'new'],
      ['update', 'new'],
      ['delete', 'old'],
    ] as const) {
      await sql`
        create trigger ${sql.raw(`${table}_report_conversations_${event}`)}
        after ${sql.raw(event)} on ${sql.table(table)}
        referencing ${sql.raw(transition)} table as changed_rows
        for each statement execute function ${sql.raw(refresh)}()`.execute(db);
      // Always, even in a session that turns triggers off to load rows in bulk
      // (session_replication_role = replica, as pg_restore --disable-triggers does): a fact
      // left stale would be a wrong figure, not a skipped check.
      await sql`
        alter table ${sql.table(table)}
        enable always trigger ${sql.raw(`${table}_report_conversations_${event}`)}`.execute(db);
    }
  }

  await sql`select report_conversations_refresh(array(
    select id from call_reports where previous_call_id is null))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'call_reports',
    'call_events',
    'call_quality',
    'call_recordings',
    'rating_submissions',
  ]) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql`drop trigger ${sql.raw(`${table}_report_conversations_${event}`)}
        on ${sql.table(table)}`.execute(db);
    }
  }
  for (const name of [
    'report_conversations_of_events',
    'report_conversations_of_legs',
    'report_conversations_of_reports',
  ]) {
    await sql`drop function ${sql.raw(name)}()`.execute(db);
  }
  await sql`drop function report_conversations_refresh(integer[])`.execute(db);
  await sql`drop table report_conversations`.execute(db);
}
