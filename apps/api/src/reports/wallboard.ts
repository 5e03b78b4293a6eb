import { sql, type Kysely } from 'kysely';
import { REPORT_CUT_OFF_DEFAULTS, type AgentState, type Wallboard } from '@frontdesk/protocol';
import { guestsAskingSince, liveCallsSince } from '../calls/call-coordination.ts';
import type { Database } from '../db/schema.ts';
import { hasFreshReport, hasLiveSignIn } from '../staff/staff-repository.ts';

/** The wallboard's cut-offs: the summary's defaults (a short abandon is not counted). */
const { serviceLevelSeconds, serviceLevelTarget, shortAbandonSeconds } = REPORT_CUT_OFF_DEFAULTS;
/** Where a company keeps no timetable, its day is UTC's. */
const DEFAULT_TIME_ZONE = 'UTC';

export type Clock = { now: Date; liveSince: Date; presentSince: Date };

/** The instants that make a call live and a waiting guest present, as of `now`. */
export function clockAt(now: Date): Clock {
  return {
    now,
    liveSince: liveCallsSince(now.getTime()),
    presentSince: guestsAskingSince(now.getTime()),
  };
}

/**
 * The calls waiting now, by category: let through, unanswered, unended, younger than a login
 * (as `listCalls` lists them) and whose guest still asks for its place (as `queueOf` counts it).
 */
async function waitingByCategory(db: Kysely<Database>, companyId: number, clock: Clock) {
  return db
    .selectFrom('call_reports')
    .select((eb) => [
      'category_id',
      eb.fn.countAll<string>().as('waiting'),
      eb.fn.min('created_at').as('oldest'),
    ])
    .where('company_id', '=', companyId)
    .where('status', '=', 'ok')
    .where('ended_at', 'is', null)
    .where('agent_id', 'is', null)
    .where('created_at', '>', clock.liveSince)
    .where((eb) => eb(eb.fn.coalesce('guest_seen_at', 'created_at'), '>', clock.presentSince))
    .groupBy('category_id')
    .execute();
}

/**
 * Every active member and what they are doing: offline without a live sign-in or a report that
 * still counts, in a call while they hold an answered call that has not ended and their console
 * does not say available (it says busy through a call: a call left unended by a closed page must
 * not keep an agent who is back at work "in a call"), else what they last reported (busy shows
 * as away: neither takes calls).
 */
export async function agentStates(db: Kysely<Database>, companyId: number, clock: Clock) {
  const rows = await db
    .selectFrom('staff')
    .select((eb) => [
      'staff.id',
      'staff.name',
      'staff.availability',
      hasLiveSignIn(eb).as('signedIn'),
      eb.fn.coalesce(hasFreshReport(eb), eb.lit(false)).as('reported'),
      eb
        .exists(
          eb
            .selectFrom('call_reports')
            .select('call_reports.id')
            .whereRef('call_reports.agent_id', '=', 'staff.id')
            .where('call_reports.status', '=', 'ok')
            .where('call_reports.ended_at', 'is', null)
            .where('call_reports.created_at', '>', clock.liveSince),
        )
        .as('inCall'),
    ])
    .where('staff.company_id', '=', companyId)
    .where('staff.active', '=', true)
    .orderBy('staff.name')
    .orderBy('staff.id')
    .execute();
  return rows.map(({ id, name, availability, signedIn, reported, inCall }) => {
    let state: AgentState;
    if (!signedIn) state = 'offline';
    else if (inCall && availability !== 'available') state = 'inCall';
    else if (!reported) state = 'offline';
    else state = availability === 'available' ? 'available' : 'away';
    return { id, name, state };
  });
}

/**
 * Today's conversations (begun since midnight in the company's zone), as the summary counts
 * them: answered when any leg was, abandoned when unanswered and over after the short-abandon
 * cut-off, within the service level when first answered within its threshold of the start.
 */
async function todayFigures(db: Kysely<Database>, companyId: number) {
  const schedule = await db
    .selectFrom('schedules')
    .select('time_zone')
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  const timeZone = schedule?.time_zone ?? DEFAULT_TIME_ZONE;
  const conversations = db
    .selectFrom('call_reports as origin')
    .innerJoin('call_reports as leg', (join) =>
      join
        .onRef('leg.company_id', '=', 'origin.company_id')
        .onRef('leg.origin_call_id', '=', 'origin.call_id')
        .on('leg.status', '=', 'ok'),
    )
    .select((eb) => [
      'origin.created_at as started_at',
      eb.fn.min('leg.answered_at').as('answered_at'),
      eb.fn.max('leg.ended_at').as('ended_at'),
      sql<boolean>`bool_and(leg.ended_at is not null)`.as('over'),
    ])
    .where('origin.company_id', '=', companyId)
    .where('origin.status', '=', 'ok')
    .whereRef('origin.call_id', '=', 'origin.origin_call_id')
    .where(
      'origin.created_at',
      '>=',
      sql<Date>`date_trunc('day', now() at time zone ${timeZone}) at time zone ${timeZone}`,
    )
    .groupBy(['origin.id', 'origin.created_at']);
  const seconds = (count: number) => sql<Date>`make_interval(secs => ${count})`;
  const figures = await db
    .selectFrom(conversations.as('c'))
    .select([
      sql<string>`count(*) filter (where c.answered_at is not null)`.as('answered'),
      sql<string>`count(*) filter (where c.answered_at is null and c.over
        and c.ended_at - c.started_at >= ${seconds(shortAbandonSeconds)})`.as('abandoned'),
      sql<string>`count(*) filter (where c.answered_at - c.started_at
        <= ${seconds(serviceLevelSeconds)})`.as('withinThreshold'),
    ])
    .executeTakeFirstOrThrow();
  const answered = Number(figures.answered);
  const abandoned = Number(figures.abandoned);
  const counted = answered + abandoned;
  return {
    answered,
    abandoned,
    serviceLevel: {
      thresholdSeconds: serviceLevelSeconds,
      target: serviceLevelTarget,
      ratio: counted === 0 ? null : Number(figures.withinThreshold) / counted,
    },
  };
}

/**
 * `GET /api/reports/wallboard`: the company now — guests waiting (in all and by category, each
 * with its longest wait), the team's states, and today's figures. Categories the admin deleted
 * show only while a guest still waits in one; calls without a category show as a row of their
 * own (`id` and `name` null) while any waits.
 */
export async function wallboard(
  db: Kysely<Database>,
  companyId: number,
  now = new Date(),
): Promise<Wallboard> {
  const clock = clockAt(now);
  const [categories, waiting, agents, today] = await Promise.all([
    db
      .selectFrom('categories')
      .select(['id', 'name', 'deleted_at'])
      .where('company_id', '=', companyId)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    waitingByCategory(db, companyId, clock),
    agentStates(db, companyId, clock),
    todayFigures(db, companyId),
  ]);
  const waitOf = (oldest: Date | null) =>
    oldest === null ? null : Math.max(0, now.getTime() - oldest.getTime());
  const lines = new Map(waiting.map((line) => [line.category_id, line]));
  const rows = [
    ...categories.filter((category) => category.deleted_at === null || lines.has(category.id)),
    ...(lines.has(null) ? [{ id: null, name: null }] : []),
  ].map(({ id, name }) => {
    const line = lines.get(id);
    const oldest = line?.oldest ?? null;
    return {
      id,
      name,
      waiting: Number(line?.waiting ?? 0),
      longestWaitMs: waitOf(oldest),
      oldestSince: oldest?.toISOString() ?? null,
    };
  });
  const oldest = waiting.reduce<Date | null>(
    (earliest, line) => (earliest === null || line.oldest < earliest ? line.oldest : earliest),
    null,
  );
  return {
    at: now.toISOString(),
    waiting: rows.reduce((sum, row) => sum + row.waiting, 0),
    longestWaitMs: waitOf(oldest),
    categories: rows,
    agents,
    today,
  };
}
