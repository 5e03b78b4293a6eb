import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import autocannon from 'autocannon';
import {
  createApiClient,
  formatCallId,
  formatBrowserUsername,
  routes,
  routeUrl,
  type RouteBody,
} from '@frontdesk/protocol';
import { rssBytes } from '../proc.ts';
import { ms, type Row, type Section } from '../report.ts';
import { OPEN_COMPANY_ID } from '../web/page-weight.ts';
import { passCompanyChecks } from '../../../e2e/support/company-checks.ts';

const CONNECTIONS = 50;

type Endpoint = {
  name: string;
  options: Omit<autocannon.Options, 'url' | 'connections' | 'duration'>;
  path: string;
};

type Run = { rps: number; p50: number; p99: number; non2xx: number; errors: number };

async function cannon(url: string, seconds: number, endpoint?: Endpoint): Promise<Run> {
  const result = await autocannon({
    url: endpoint ? `${url}${endpoint.path}` : url,
    connections: CONNECTIONS,
    duration: seconds,
    ...endpoint?.options,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** A registered, logged-in guest of the open company: what the call-report calls need. */
async function loginGuest(baseUrl: string): Promise<{ username: string; token: string }> {
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

async function startHelloWorld(): Promise<{ url: string; stop: () => void }> {
  const child = fork(new URL('./hello-world.ts', import.meta.url), {
    execArgv: ['--import', 'tsx'],
  });
  const [message] = (await once(child, 'message')) as [{ port: number }];
  return { url: `http://127.0.0.1:${message.port}/`, stop: () => child.disconnect() };
}

/**
 * API throughput: autocannon with 50 connections against three API routes, each run right after
 * a run against a bare Fastify hello-world, so the ratio compares two sides measured moments
 * apart on the same (shared, noisy) machine.
 */
export async function measureApiThroughput(
  baseUrl: string,
  apiPid: number,
  seconds: number,
): Promise<Section> {
  const guest = await loginGuest(baseUrl);
  const json = { 'content-type': 'application/json', authorization: `Bearer ${guest.token}` };
  // Every added report needs its own call id; update-timestamp then cycles over those reports,
  // so it touches rows that exist without piling every request onto one row lock.
  let added = 0;
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
        headers: json,
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({
                call_id: formatCallId(guest.username, `b${(added += 1)}`),
                company: OPEN_COMPANY_ID,
                source: 'widget',
              } satisfies RouteBody<typeof routes.addCallReport>),
            }),
          },
        ],
      },
    },
    {
      name: 'PUT /api/call-report/update-timestamp',
      path: `/api${routes.stampCallReport.path}`,
      options: {
        method: routes.stampCallReport.method,
        headers: json,
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({
                call_id: formatCallId(guest.username, `b${((stamped += 1) % added) + 1}`),
                call_initiated_timestamp: true,
              } satisfies RouteBody<typeof routes.stampCallReport>),
            }),
          },
        ],
      },
    },
  ];

  const hello = await startHelloWorld();
  const rows: Row[] = [];
  const runs: Record<string, { api: Run; helloWorld: Run; ratio: number }> = {};
  let peakRss = 0;
  try {
    for (const endpoint of endpoints) {
      const helloWorld = await cannon(hello.url, seconds);
      const api = await cannon(baseUrl, seconds, endpoint);
      peakRss = Math.max(peakRss, rssBytes(apiPid));
      const ratio = api.rps / helloWorld.rps;
      runs[endpoint.name] = { api, helloWorld, ratio };
      const failures = api.non2xx + api.errors;
      rows.push({
        figure: endpoint.name,
        measured: `${Math.round(api.rps)} req/s, p50 ${ms(api.p50)}, p99 ${ms(api.p99)}`,
        goal: 'ratio ≥ 0.25, p99 < 50 ms',
        note:
          `${ratio.toFixed(2)} × hello-world (${Math.round(helloWorld.rps)} req/s)` +
          (failures > 0 ? `; ${failures} failed` : ''),
      });
    }
  } finally {
    hello.stop();
  }
  return { rows, data: { connections: CONNECTIONS, seconds, runs, apiPeakRss: peakRss } };
}
