import type { Kysely } from 'kysely';
import type { SupervisedCall, SupervisedWait, Supervisor } from '@frontdesk/protocol';
import type { Database } from '../db/schema.ts';
import { latestWelcomeBefore } from '../forms/submissions.ts';
import { nameAnswer } from '../guests/guest-context.ts';
import { agentStates, clockAt, type Clock } from './wallboard.ts';

/**
 * The company's live calls that were let through and have not ended: answered ones (with their
 * agent and whether that agent holds them) or waiting ones whose guest still asks for its place
 * (as the wallboard counts them), oldest first.
 */
async function liveCalls(db: Kysely<Database>, companyId: number, clock: Clock) {
  return db
    .selectFrom('call_reports as r')
    .innerJoin('guests as g', 'g.id', 'r.guest_id')
    .leftJoin('categories as k', 'k.id', 'r.category_id')
    .select((eb) => {
      // The agent's last hold or resume (call_events): held while it is a hold.
      const lastHold = eb
        .selectFrom('call_events as e')
        .whereRef('e.call_report_id', '=', 'r.id')
        .where('e.kind', 'in', ['held', 'resumed'])
        .orderBy('e.at', 'desc')
        .orderBy('e.id', 'desc')
        .limit(1);
      return [
        'r.call_id',
        'r.guest_id',
        'r.agent_id',
        'r.category_id',
        'r.call_type',
        'r.created_at',
        'r.answered_at',
        'g.jabberusername',
        'k.name as category_name',
        lastHold.select('e.kind').as('hold_kind'),
        lastHold.select('e.at').as('hold_at'),
      ];
    })
    .where('r.company_id', '=', companyId)
    .where('r.status', '=', 'ok')
    .where('r.ended_at', 'is', null)
    .where('r.created_at', '>', clock.liveSince)
    .where((eb) =>
      eb.or([
        eb('r.agent_id', 'is not', null),
        eb(eb.fn.coalesce('r.guest_seen_at', 'r.created_at'), '>', clock.presentSince),
      ]),
    )
    .orderBy('r.created_at')
    .orderBy('r.id')
    .execute();
}

/**
 * `GET /api/reports/supervisor`: the company now, for its admins — every active member with
 * their state (as the wallboard tells it) and the calls they are in (the guest, its category,
 * since when, on hold or not), and the guests waiting, longest first.
 */
export async function supervisor(
  db: Kysely<Database>,
  companyId: number,
  now = new Date(),
): Promise<Supervisor> {
  const clock = clockAt(now);
  const [agents, calls] = await Promise.all([
    agentStates(db, companyId, clock),
    liveCalls(db, companyId, clock),
  ]);
  // The guests' names, from the welcome answers each gave last (few calls are live at once).
  const names = new Map(
    await Promise.all(
      [...new Set(calls.map((call) => call.guest_id))].map(async (guestId) => {
        const welcome = await latestWelcomeBefore(db, companyId, guestId, now);
        return [guestId, welcome ? nameAnswer(welcome.fields, welcome.answers) : null] as const;
      }),
    ),
  );
  const guestOf = (call: (typeof calls)[number]) => ({
    callId: call.call_id,
    guestJabberUsername: call.jabberusername,
    guestName: names.get(call.guest_id) ?? null,
    categoryId: call.category_id,
    categoryName: call.category_name,
    callType: call.call_type,
  });
  const held = new Map<number, SupervisedCall[]>();
  const waiting: SupervisedWait[] = [];
  for (const call of calls) {
    if (call.agent_id === null) {
      waiting.push({ ...guestOf(call), since: call.created_at.toISOString() });
      continue;
    }
    const onHold = call.hold_kind === 'held';
    held.set(call.agent_id, [
      ...(held.get(call.agent_id) ?? []),
      {
        ...guestOf(call),
        answeredAt: (call.answered_at ?? call.created_at).toISOString(),
        onHold,
        heldSince: onHold && call.hold_at ? call.hold_at.toISOString() : null,
      },
    ]);
  }
  return {
    at: now.toISOString(),
    agents: agents.map((agent) => ({ ...agent, calls: held.get(agent.id) ?? [] })),
    waiting,
  };
}
