import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { setTimeout } from 'node:timers/promises';
import autocannon from 'autocannon';
import { POOL_SIZE } from '@frontdesk/api/database';
import {
  createApiClient,
  formatCallId,
  formatBrowserUsername,
  routes,
  routeUrl,
  type RouteBody,
} from '@frontdesk/protocol';
import { nextMessage } from '../ipc.ts';
import { rssBytes } from '../proc.ts';
import { ms, type Row, type Section } from '../report.ts';
import { percentile } from '../stats.ts';
import { connectToSchema, type BenchStack } from '../stack.ts';
import { OPEN_COMPANY_ID } from '../web/page-weight.ts';
import { passCompanyChecks } from '../../../e2e/support/company-checks.ts';
import type { PgFloorMessage, PgFloorRequest } from './pg-floor.ts';

const CONNECTIONS = 50;
/** Rounds of slices; every side runs once in each, so each figure has this many samples. */
const ROUNDS = 5;
/** The pause after each slice, for the requests autocannon left under way to end. */
const SETTLE_MS = 1000;

type Endpoint = {
  name: string;
  options: Omit<autocannon.Options, 'url' | 'connections' | 'duration'>;
  path: string;
};

type Run = { rps: number; p50: number; p99: number; failed: number };

/** One side of the comparison: runs `seconds` of load and answers what it measured. */
type Side = { name: string; measure: (seconds: number) => Promise<Run> };

async function cannon(url: string, seconds: number, endpoint?: Endpoint): Promise<Run> {
  const result = await autocannon({
    url: endpoint ? `${url}${endpoint.path}` : url,
    connections: CONNECTIONS,
    duration: seconds,
    ...endpoint?.options,
  });
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

type Guest = { username: string; token: string };

/** A registered, logged-in guest of the open company: what the call-report calls need. */
async function loginGuest(baseUrl: string): Promise<Guest> {
  const request = createApiClient(`${baseUrl}/api`);
  const { data: registration } = await request(routes.registerGuest, {
    body: {
      username: formatBrowserUsername('benchvisitor', randomBytes(8).toString('hex')),
      companyId: OPEN_COMPANY_ID,
    },
  });
  const { data } = await request(routes.guestLogin, {
    body: { credential: registration.credential, companyId: OPEN_COMPANY_ID },
  });
  const guest = { username: registration.username, token: data.access_token };
  await passCompanyChecks(request, OPEN_COMPANY_ID, guest);
  return guest;
}

/** `count` guests, registered ten at a time. */
async function loginGuests(baseUrl: string, count: number): Promise<Guest[]> {
  const guests: Guest[] = [];
  while (guests.length < count) {
    const batch = Math.min(10, count - guests.length);
    guests.push(...(await Promise.all(Array.from({ length: batch }, () => loginGuest(baseUrl)))));
  }
  return guests;
}

/**
 * The API's rate limits (60 guest actions a minute per address, 30 calls per guest, 300 per
 * company) would answer 429 to all but the first few hundred requests of one bench guest. A real
 * load comes from many guests and addresses; here every counter of the run's throwaway schema is
 * held at one hit, so each request still runs its counter statements but is let through.
 */
async function holdRateLimitsAtOneHit(stack: BenchStack): Promise<void> {
  const client = await connectToSchema(stack.databaseUrl, stack.schema);
  try {
    await client.query(`
      create function bench_one_hit() returns trigger language plpgsql as
        $$ begin new.hits := 1; return new; end $$;
      create trigger bench_one_hit before update on rate_limit_counters
        for each row execute function bench_one_hit();
    `);
  } finally {
    await client.end();
  }
}

/** A helper process of this folder, ready once it sends its first message. */
async function forkHelper<M>(file: string, args: string[] = []): Promise<[ChildProcess, M]> {
  const child = fork(new URL(file, import.meta.url), args, { execArgv: ['--import', 'tsx'] });
  const [message] = (await once(child, 'message')) as [M];
  return [child, message];
}

const median = (values: readonly number[]) => percentile(values, 50);
const reqs = (rps: number) => `${Math.round(rps)} req/s`;
/** The rounds' lowest and highest rate. */
const range = (values: readonly number[]) =>
  `${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))}`;

/**
 * API throughput (issue 22): autocannon with 50 connections against three API routes, beside two
 * floors measured in the same rounds: a bare Fastify hello-world and a bare `pg` insert loop (50
 * workers over a pool as large as the API's). Each round runs a short slice of every side, one
 * after the other, so every ratio compares sides measured moments apart on the same shared,
 * noisy machine; the figures are medians over the rounds, with their spread.
 */
export async function measureApiThroughput(stack: BenchStack, seconds: number): Promise<Section> {
  const baseUrl = stack.url;
  await holdRateLimitsAtOneHit(stack);
  // One guest per connection, taken in turn: a guest has one call under way at a time, and each
  // new one ends the guest's previous call, as a guest calling again does. (One guest for all 50
  // connections made each add end dozens of calls still being added, one after the other.)
  const guests = await loginGuests(baseUrl, CONNECTIONS);
  const headersOf = (guest: Guest) => ({
    'content-type': 'application/json',
    authorization: `Bearer ${guest.token}`,
  });
  // Every added report needs its own call id; update-timestamp then cycles over those reports,
  // so it touches rows that exist without piling every request onto one row lock.
  const added: { guest: Guest; callId: string }[] = [];
  let stamped = 0;
  const endpoints: Endpoint[] = [
    {
      name: `GET /api/company/${OPEN_COMPANY_ID}`,
      path: `/api${routeUrl(routes.company, { id: OPEN_COMPANY_ID })}`,
      options: {},
    },
    {
      name: 'POST /api/call-report/add',
      path: `/api${routes.addCallReport.path}`,
      options: {
        method: routes.addCallReport.method,
        requests: [
          {
            setupRequest: (request) => {
              const guest = guests[added.length % guests.length] as Guest;
              const callId = formatCallId(guest.username, `b${added.length}`);
              added.push({ guest, callId });
              return {
                ...request,
                headers: headersOf(guest),
                body: JSON.stringify({
                  call_id: callId,
                  company: OPEN_COMPANY_ID,
                  source: 'widget',
                } satisfies RouteBody<typeof routes.addCallReport>),
              };
            },
          },
        ],
      },
    },
    {
      name: 'PUT /api/call-report/update-timestamp',
      path: `/api${routes.stampCallReport.path}`,
      options: {
        method: routes.stampCallReport.method,
        requests: [
          {
            setupRequest: (request) => {
              const { guest, callId } = added[(stamped += 1) % added.length] as (typeof added)[0];
              return {
                ...request,
                headers: headersOf(guest),
                body: JSON.stringify({
                  call_id: callId,
                  call_initiated_timestamp: true,
                } satisfies RouteBody<typeof routes.stampCallReport>),
              };
            },
          },
        ],
      },
    },
  ];

  const [hello, { port }] = await forkHelper<{ port: number }>('./hello-world.ts');
  const [pgFloor] = await forkHelper<PgFloorMessage>('./pg-floor.ts', [
    stack.databaseUrl,
    stack.schema,
    String(POOL_SIZE),
  ]);
  const helloWorld: Side = {
    name: 'hello-world',
    measure: (s) => cannon(`http://127.0.0.1:${port}/`, s),
  };
  const pgInsert: Side = {
    name: 'pg insert',
    measure: async (s) => {
      const result = nextMessage<PgFloorMessage, 'result'>(pgFloor, 'result');
      pgFloor.send({ type: 'run', seconds: s, workers: CONNECTIONS } satisfies PgFloorRequest);
      const { rps, p50, p99, errors } = await result;
      return { rps, p50, p99, failed: errors };
    },
  };
  const sides: Side[] = [
    helloWorld,
    pgInsert,
    ...endpoints.map((endpoint) => ({
      name: endpoint.name,
      measure: (s: number) => cannon(baseUrl, s, endpoint),
    })),
  ];
  // Long enough for a loaded machine's slowest answers (seconds each at load 20) to land inside.
  const slice = Math.max(5, Math.round(seconds / 2));
  const rounds: { loadAverage: number[]; runs: Record<string, Run> }[] = [];
  let peakRss = 0;
  try {
    // An unrecorded warm-up slice of each side: JIT, pools' connections, the first reports.
    for (const side of sides) await side.measure(2);
    for (let round = 0; round < ROUNDS; round += 1) {
      const runs: Record<string, Run> = {};
      // Each round starts one side later, so no side always follows the same one.
      for (let i = 0; i < sides.length; i += 1) {
        const side = sides[(i + round) % sides.length] as Side;
        runs[side.name] = await side.measure(slice);
        // Answers still under way when a slice ends would be counted against the next side.
        await setTimeout(SETTLE_MS);
        peakRss = Math.max(peakRss, rssBytes(stack.apiPid));
      }
      rounds.push({ loadAverage: loadavg(), runs });
    }
  } finally {
    hello.disconnect();
    pgFloor.disconnect();
  }

  const samples = (name: string) => rounds.map(({ runs }) => runs[name] as Run);
  const figures = (name: string) => {
    const runs = samples(name);
    return {
      rps: median(runs.map((run) => run.rps)),
      p50: median(runs.map((run) => run.p50)),
      p99: median(runs.map((run) => run.p99)),
      spread: range(runs.map((run) => run.rps)),
      failed: runs.reduce((sum, run) => sum + run.failed, 0),
    };
  };
  /** The median over the rounds of each round's ratio of `name` to `floor`. */
  const ratio = (name: string, floor: Side) =>
    median(rounds.map(({ runs }) => (runs[name] as Run).rps / (runs[floor.name] as Run).rps));
  const hw = figures(helloWorld.name);
  const floor = figures(pgInsert.name);
  const rows: Row[] = endpoints.map(({ name }) => {
    const api = figures(name);
    return {
      figure: name,
      measured: `${reqs(api.rps)} (rounds ${api.spread}), p50 ${ms(api.p50)}, p99 ${ms(api.p99)}`,
      floor:
        `hello-world ${reqs(hw.rps)} (${ratio(name, helloWorld).toFixed(2)}×); ` +
        `pg insert ${reqs(floor.rps)} (${ratio(name, pgInsert).toFixed(2)}×)`,
      goal: '≥ 0.25 × hello-world, p99 < 50 ms',
      note:
        `median of ${ROUNDS} interleaved ${slice} s rounds` +
        (api.failed > 0 ? `; ${api.failed} failed` : ''),
    };
  });
  for (const [side, what] of [
    [helloWorld, 'bare Fastify, one route'],
    [pgInsert, `${CONNECTIONS} workers, pool of ${POOL_SIZE}`],
  ] as const) {
    const f = figures(side.name);
    rows.push({
      figure: `Floor: ${side.name} (${what})`,
      measured: `${reqs(f.rps)} (rounds ${f.spread}), p50 ${ms(f.p50)}, p99 ${ms(f.p99)}`,
      goal: 'reported',
      note: f.failed > 0 ? `${f.failed} failed` : '',
    });
  }
  return {
    rows,
    data: {
      connections: CONNECTIONS,
      sliceSeconds: slice,
      poolSize: POOL_SIZE,
      rounds,
      apiPeakRss: peakRss,
    },
  };
}
