// Calls set up per second and live calls held, on one set of servers reached through `url`: the
// API's whole path as the apps take it, then media from the Janus capacity benchmark's werift
// generators. Per step of N calls: guests report calls and wait in their chat rooms, Cy claims
// each, both sides open the call's room (placed on a Janus server and created there) — the
// signalling phase, timed — then both sides publish and subscribe on that server (the media
// phase, timed by the generators), the calls are held and their loss counted, and Cy ends them.
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { findDemoLogin } from '@frontdesk/api/seed';
import { createApiClient, routes } from '@frontdesk/protocol';
import {
  AGENT,
  checkedGuest,
  waitingGuest,
  type CheckedGuest,
} from '../../../e2e/support/console.ts';
import { runStep, type Step } from '../janus/capacity.ts';
import type { ApiRoomCall } from '../janus/generator.ts';
import { ensureClipFiles } from '../janus/media.ts';
import { pct, type Row } from '../report.ts';
import { summarize, type Summary } from '../stats.ts';
import { inTurn } from './in-turn.ts';

/** Company 12's Sales category, served by Cy at any hour (apps/api/src/db/seed.ts). */
const COMPANY = 12;
const CATEGORY = 10;
/** The signalling requests of one call after the guest's log-in: form, report, claim, 2 rooms. */
const REQUESTS_PER_CALL = 5;
/**
 * Every guest comes from this machine's one address, and the API lets an address register or log
 * in 30 times a minute (two per guest): guests are made before the steps, this many a minute.
 */
const GUESTS_PER_MINUTE = 14;

export type LiveCallsPlan = {
  /** Calls per step, stepped up until a step is not clean. */
  steps: readonly number[];
  /** How long each step's calls are held while their loss is counted. */
  seconds: number;
  /** Calls through the signalling phase at once. */
  concurrency: number;
};

/** The servers under test: where browsers go, and the database that says where rooms are. */
export type CallTarget = {
  name: string;
  url: string;
  databaseUrl: string;
  schema?: string;
  /** The Janus processes, whose CPU and memory are counted over each step's held window. */
  janusPids: readonly number[];
};

export type LiveStep = {
  calls: number;
  signallingS: number;
  signallingMs: Summary;
  signallingFailures: string[];
  /** The same number of GET /api/config requests, at the same concurrency, right after. */
  floorS: number;
  media: Step;
  /** Calls over the signalling and media phases' wall time. */
  callsPerS: number;
  clean: boolean;
};

/**
 * `notClean` says how the first step that was not clean failed; without it every step was clean,
 * and the last step is the plan's end, not the servers' capacity.
 */
export type LiveCalls = { target: string; steps: LiveStep[]; notClean?: string };

/** `count` checked guests, paced under the API's per-address limit on registrations. */
async function makeGuests(count: number, log: (line: string) => void): Promise<CheckedGuest[]> {
  const guests: CheckedGuest[] = [];
  while (guests.length < count) {
    const startedAt = Date.now();
    const batch = Math.min(GUESTS_PER_MINUTE, count - guests.length);
    for (let i = 0; i < batch; i += 1) guests.push(await checkedGuest(COMPANY, 'bench'));
    if (guests.length < count) {
      log(
        `  ${guests.length}/${count} guests registered; the API's limit asks for a minute's wait`,
      );
      await sleep(Math.max(0, 61_000 - (Date.now() - startedAt)));
    }
  }
  return guests;
}

/** Steps up calls on `target` until one is not clean (as the Janus capacity benchmark does). */
export async function measureLiveCalls(
  target: CallTarget,
  plan: LiveCallsPlan,
  log: (line: string) => void,
): Promise<LiveCalls> {
  ensureClipFiles();
  // The e2e suite's browserless guest (e2e/support/console.ts) reaches the API named here.
  process.env.FRONTDESK_URL = target.url;
  const api = createApiClient(`${target.url}/api`);
  const cy = findDemoLogin(AGENT.cy);
  const login = await api(routes.staffLogin, { body: { email: cy.email, password: cy.password } });
  if (!('access_token' in login.data)) throw new Error(`${cy.email} must choose a password first`);
  const agent = { token: login.data.access_token, janusToken: login.data.janusToken };
  const database = new pg.Pool({
    connectionString: target.databaseUrl,
    max: 2,
    ...(target.schema ? { options: `-c search_path=${target.schema}` } : {}),
  });
  const serverOf = async (callId: string) => {
    const { rows } = await database.query<{ http_url: string }>(
      `select s.http_url from call_reports c join media_servers s on s.id = c.media_server_id
       where c.call_id = $1`,
      [callId],
    );
    const httpUrl = rows[0]?.http_url;
    if (!httpUrl) throw new Error(`call ${callId} was placed on no media server`);
    return httpUrl;
  };
  const guests = await makeGuests(Math.max(...plan.steps), log);
  const steps: LiveStep[] = [];
  let notClean: string | undefined;
  try {
    for (const calls of plan.steps) {
      const waiting: Awaited<ReturnType<typeof waitingGuest>>[] = [];
      const joins: ApiRoomCall[] = [];
      const signallingMs: number[] = [];
      const signallingFailures: string[] = [];
      const signallingS = await inTurn(calls, plan.concurrency, async (i) => {
        const startedAt = performance.now();
        try {
          const guest = await waitingGuest(COMPANY, CATEGORY, guests[i]);
          waiting.push(guest);
          await api(routes.claimCall, {
            token: agent.token,
            body: { guestUsername: guest.username, categoryId: CATEGORY },
          });
          const params = { callId: guest.callId };
          const [guestRoom, agentRoom] = await Promise.all([
            api(routes.callRoom, { token: guest.login.access_token, params }),
            api(routes.callRoom, { token: agent.token, params }),
          ]);
          signallingMs.push(performance.now() - startedAt);
          joins.push({
            room: guestRoom.data.room,
            httpUrl: await serverOf(guest.callId),
            sides: [
              { ...guestRoom.data, janusToken: guest.services.janusToken },
              { ...agentRoom.data, janusToken: agent.janusToken },
            ],
          });
        } catch (error) {
          signallingFailures.push(error instanceof Error ? error.message : String(error));
        }
      });
      const floorS = await inTurn(calls * REQUESTS_PER_CALL, plan.concurrency, async () => {
        await api(routes.config);
      });
      let media: Step;
      try {
        if (joins.length === 0) throw new Error(`no call through: ${signallingFailures[0] ?? ''}`);
        media = await runStep(
          (g, count) => ({ type: 'join', calls: joins.filter((_, i) => i % count === g) }),
          joins.length,
          plan.seconds,
          target.janusPids,
        );
      } catch (error) {
        notClean = `${calls} calls: ${error instanceof Error ? error.message : String(error)}`;
        log(`  ${target.name}, ${notClean}`);
        break;
      } finally {
        await Promise.all(
          waiting.map(async (guest) => {
            await api(routes.endCall, {
              token: agent.token,
              params: { callId: guest.callId },
              body: { reason: 'completed' },
            }).catch(() => undefined);
            guest.leave();
          }),
        );
      }
      const step: LiveStep = {
        calls,
        signallingS,
        signallingMs: summarize(signallingMs),
        signallingFailures,
        floorS,
        media,
        callsPerS: media.connected / (signallingS + media.setupS),
        clean: signallingFailures.length === 0 && media.clean && media.calls === calls,
      };
      steps.push(step);
      log(
        `  ${target.name}, ${calls} calls: ${media.connected} up, ${step.callsPerS.toFixed(2)} calls/s ` +
          `(signalling ${signallingS.toFixed(1)} s, floor ${floorS.toFixed(1)} s; media ${media.setupS.toFixed(1)} s), ` +
          `worst loss ${pct(media.loss.max)}, box ${pct(media.machineBusy)} busy` +
          (signallingFailures.length > 0
            ? `, failed: ${signallingFailures.slice(0, 2).join('; ')}`
            : '') +
          (media.setupErrors.length > 0
            ? `, media errors: ${media.setupErrors.slice(0, 2).join('; ')}`
            : ''),
      );
      if (!step.clean) {
        notClean = `${calls} calls not clean (${media.connected} up, worst loss ${pct(media.loss.max)}, box ${pct(media.machineBusy)} busy)`;
        break;
      }
    }
  } finally {
    await database.end();
  }
  return { target: target.name, steps, ...(notClean === undefined ? {} : { notClean }) };
}

const best = (result: LiveCalls) => result.steps.filter((step) => step.clean).at(-1);

/** Every step was clean: the calls held are a floor the plan set, not what the servers hold. */
const cappedByPlan = (result: LiveCalls) => result.notClean === undefined;

/** The calls held at `step`, marked as the plan's end when no step failed. */
const held = (result: LiveCalls, step: LiveStep) =>
  cappedByPlan(result) ? `≥ ${step.calls}` : `${step.calls}`;

/** The table's lines for one target: its best clean step's rate and the calls it held. */
export function liveCallRows(result: LiveCalls): Row[] {
  const step = best(result);
  if (!step) {
    return [
      {
        figure: `Live calls held, ${result.target}`,
        measured: 'no clean step',
        goal: 'reported',
        note: result.notClean ?? '',
      },
    ];
  }
  return [
    {
      figure: `Calls set up, ${result.target}`,
      measured: `${step.callsPerS.toFixed(2)} calls/s`,
      goal: 'reported',
      note:
        `${step.calls} calls, signalling p50 ${Math.round(step.signallingMs.p50)} ms, p95 ${Math.round(step.signallingMs.p95)} ms ` +
        `(floor: the same ${REQUESTS_PER_CALL} requests a call to GET /api/config, ${(step.calls / step.floorS).toFixed(1)} calls/s); ` +
        `media p50 ${Math.round(step.media.setupMs.p50)} ms`,
    },
    {
      figure: `Live calls held, ${result.target}`,
      measured: cappedByPlan(result)
        ? `${held(result, step)} calls (the plan's end, not the servers')`
        : `${step.calls} calls clean`,
      goal: 'reported',
      note:
        `loss p50 ${pct(step.media.loss.p50)}, max ${pct(step.media.loss.max)}; ` +
        `Janus ${pct(step.media.janusCpu)} of a core (all servers); ` +
        `box ${pct(step.media.machineBusy)} busy; ` +
        (result.notClean ?? 'every step clean, the servers were not pushed to a limit'),
    },
  ];
}

/** Two of each against one of each, both measured in this run: the ratios, with both figures. */
export function ratioRow(one: LiveCalls, two: LiveCalls): Row {
  const [a, b] = [best(one), best(two)];
  if (!a || !b) {
    return {
      figure: 'Two of each ÷ one of each',
      measured: 'not comparable',
      goal: 'reported',
      note: 'a side had no clean step',
    };
  }
  return {
    figure: 'Two of each ÷ one of each',
    measured:
      `calls/s ×${(b.callsPerS / a.callsPerS).toFixed(2)} (${b.callsPerS.toFixed(2)} vs ${a.callsPerS.toFixed(2)}), ` +
      heldRatio(one, a, two, b),
    goal: 'reported',
    note: 'same machine: both share its cores, so this is a ratio, not a capacity',
  };
}

/**
 * Calls held by two of each over one of each, saying which side the plan capped: a capped side's
 * figure is only a floor, so the ratio is then a bound, or nothing when both are capped.
 */
function heldRatio(one: LiveCalls, a: LiveStep, two: LiveCalls, b: LiveStep): string {
  const figures = `${held(two, b)} vs ${held(one, a)}`;
  if (cappedByPlan(one) && cappedByPlan(two)) {
    return `held not compared (${figures}: both capped by the plan's end)`;
  }
  const ratio = `×${(b.calls / a.calls).toFixed(2)}`;
  if (cappedByPlan(two))
    return `held ${ratio} or more (${figures}: two of each capped by the plan)`;
  if (cappedByPlan(one))
    return `held ${ratio} or less (${figures}: one of each capped by the plan)`;
  return `held ${ratio} (${figures})`;
}
