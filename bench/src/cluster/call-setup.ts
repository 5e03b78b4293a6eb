// Calls let through the API's whole signalling path, without media: a guest registers, answers
// the welcome form and reports a call (its chat room made on ejabberd), the agent claims it, and
// both sides open its room (placed on a Janus server and created there). The rate is a batch's
// calls over its wall time, `concurrency` calls at once; the floor is the same number of requests
// to the API's cheapest route at the same concurrency, timed right after, on the same stack.
import { findDemoLogin } from '@frontdesk/api/seed';
import { createApiClient, routes } from '@frontdesk/protocol';
import { AGENT, guestWithLiveCall } from '../../../e2e/support/console.ts';
import type { Row } from '../report.ts';
import { summarize, type Summary } from '../stats.ts';

/** Company 12's Sales category, served by Cy at any hour (apps/api/src/db/seed.ts). */
const COMPANY = 12;
const CATEGORY = 10;
/** What one call costs in requests: register, log in, company, welcome form, report, claim, two rooms. */
const REQUESTS_PER_CALL = 8;

export type CallSetupPlan = {
  /**
   * Calls in the timed batch. Every guest comes from this machine's one address, and the API
   * lets an address register or log in 30 times a minute: at most 14 calls a minute (one is
   * the warm-up).
   */
  calls: number;
  concurrency: number;
};

export type CallSetupResult = {
  calls: number;
  concurrency: number;
  callsPerS: number;
  perCallMs: Summary;
  floorCallsPerS: number;
  samples: number[];
  failures: string[];
};

async function inTurn(count: number, concurrency: number, work: (i: number) => Promise<void>) {
  let next = 0;
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) await work(i);
    }),
  );
  return (performance.now() - startedAt) / 1000;
}

/** `calls` calls through the API at `url`, after one that is not counted. */
export async function measureCallSetupRate(
  url: string,
  plan: CallSetupPlan,
): Promise<{ result: CallSetupResult; row: Row }> {
  // guestWithLiveCall (the e2e suite's browserless guest) reaches the API named here.
  process.env.FRONTDESK_URL = url;
  const api = createApiClient(`${url}/api`);
  const cy = findDemoLogin(AGENT.cy);
  const login = await api(routes.staffLogin, { body: { email: cy.email, password: cy.password } });
  if (!('access_token' in login.data)) throw new Error(`${cy.email} must choose a password first`);
  const agentToken = login.data.access_token;
  const oneCall = async () => {
    const guest = await guestWithLiveCall(COMPANY, CATEGORY, 'bench');
    await api(routes.claimCall, {
      token: agentToken,
      body: { guestUsername: guest.username, categoryId: CATEGORY },
    });
    const params = { callId: guest.callId };
    await Promise.all([
      api(routes.callRoom, { token: guest.login.access_token, params }),
      api(routes.callRoom, { token: agentToken, params }),
    ]);
  };
  await oneCall();
  const samples: number[] = [];
  const failures: string[] = [];
  const seconds = await inTurn(plan.calls, plan.concurrency, async () => {
    const startedAt = performance.now();
    try {
      await oneCall();
      samples.push(performance.now() - startedAt);
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }
  });
  const floorSeconds = await inTurn(plan.calls * REQUESTS_PER_CALL, plan.concurrency, async () => {
    await api(routes.config);
  });
  const perCallMs = summarize(samples);
  const result: CallSetupResult = {
    calls: plan.calls,
    concurrency: plan.concurrency,
    callsPerS: samples.length / seconds,
    perCallMs,
    floorCallsPerS: plan.calls / floorSeconds,
    samples,
    failures,
  };
  return {
    result,
    row: {
      figure: 'Calls set up (signalling, 1 node)',
      measured: `${result.callsPerS.toFixed(1)} calls/s, per call p50 ${Math.round(perCallMs.p50)} ms, p95 ${Math.round(perCallMs.p95)} ms`,
      goal: 'reported',
      note:
        `${samples.length}/${plan.calls} calls, ${plan.concurrency} at once, no media; floor: ` +
        `${result.floorCallsPerS.toFixed(1)} calls/s of ${REQUESTS_PER_CALL} GET /api/config each` +
        (failures.length > 0 ? `; failed: ${failures.slice(0, 2).join('; ')}` : ''),
    },
  };
}
