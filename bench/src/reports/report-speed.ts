import {
  createApiClient,
  REPORT_CSV_COLUMNS,
  REPORT_FILE_PATHS,
  reportRoutes,
  routes,
  routeUrl,
  type CallOptions,
  type Route,
  type RouteAnswer,
} from '@frontdesk/protocol';
import { rssBytes } from '../proc.ts';
import { mb, ms, type Row, type Section } from '../report.ts';
import type { BenchStack } from '../stack.ts';
import { summarize, type Summary } from '../stats.ts';
import { seedReportsCompany, type SeededCompany } from './seed.ts';

/** The load: 100,000 conversations over 90 days. */
const CONVERSATIONS = 100_000;
const DAYS = 90;
/** Requests sent before the timed ones: the first pays for cold caches and query plans. */
const WARM_UP_REQUESTS = 3;
const LATENCY_GOAL = 'p95 < 500 ms';
const EXPORT_GOAL = '≥ 20,000 rows/s';
const RSS_SAMPLE_MS = 25;

export type ReportsPlan = { requests: number; exports: number };

type ReportRequest = {
  figure: string;
  route: Route;
  query: SummaryQuery | CallsQuery;
  /** Throws when the answer is not what the figure claims to measure. */
  check: (payload: unknown) => void;
};

type SummaryQuery = Exclude<CallOptions<typeof reportRoutes.reportSummary>['query'], undefined>;
type CallsQuery = Exclude<CallOptions<typeof reportRoutes.reportCalls>['query'], undefined>;

type CsvRun = {
  rows: number;
  bytes: number;
  firstByteMs: number;
  totalMs: number;
  rowsPerSecond: number;
  apiRssBefore: number;
  apiRssPeak: number;
};

/** The day `days` before `day` (both `YYYY-MM-DD`). */
function daysBefore(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

/** Parses an answer with its route's schema: a 200 with the wrong shape is no figure. */
function parsed<R extends Route>(route: R, payload: unknown): RouteAnswer<R> {
  const result = route.response.safeParse(payload);
  if (!result.success) {
    throw new Error(`${route.path} answered outside its schema: ${result.error.message}`);
  }
  return result.data as RouteAnswer<R>;
}

async function signIn(baseUrl: string, company: SeededCompany): Promise<string> {
  const { data } = await createApiClient(`${baseUrl}/api`)(routes.staffLogin, {
    body: { email: company.adminEmail, password: company.password },
  });
  if (!('access_token' in data)) throw new Error(`${company.adminEmail} must choose a password`);
  return data.access_token;
}

/** The time to the whole answer of one GET, as the console waits for it; throws unless 200. */
async function timedGet(url: string, token: string): Promise<{ ms: number; payload: unknown }> {
  const startedAt = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  const elapsed = performance.now() - startedAt;
  if (response.status !== 200) {
    throw new Error(`GET ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  }
  return { ms: elapsed, payload: JSON.parse(text) as unknown };
}

async function measureLatency(
  baseUrl: string,
  token: string,
  request: ReportRequest,
  requests: number,
): Promise<Summary> {
  const url = `${baseUrl}/api${routeUrl(request.route, undefined, request.query)}`;
  for (let i = 0; i < WARM_UP_REQUESTS; i += 1) {
    const { payload } = await timedGet(url, token);
    if (i === 0) request.check(payload);
  }
  const samples: number[] = [];
  for (let i = 0; i < requests; i += 1) samples.push((await timedGet(url, token)).ms);
  return summarize(samples);
}

/**
 * One CSV export of the whole range, read as it streams: rows are counted by their line ends
 * (the seeded names hold none), and the API's resident memory is sampled meanwhile, so an
 * export that gathers every row before sending shows as a peak.
 */
async function exportCsv(
  baseUrl: string,
  token: string,
  apiPid: number,
  range: { from: string; to: string },
): Promise<CsvRun> {
  const query = { ...range, format: 'csv' } satisfies CallsQuery;
  const search = new URLSearchParams(query);
  const url = `${baseUrl}/api${REPORT_FILE_PATHS.callsCsv}?${search.toString()}`;
  const apiRssBefore = rssBytes(apiPid);
  let apiRssPeak = apiRssBefore;
  const sampler = setInterval(() => {
    apiRssPeak = Math.max(apiRssPeak, rssBytes(apiPid));
  }, RSS_SAMPLE_MS);
  try {
    const startedAt = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (response.status !== 200 || !response.body) {
      throw new Error(
        `GET ${url} answered ${response.status}: ${(await response.text()).slice(0, 300)}`,
      );
    }
    const contentType = response.headers.get('content-type') ?? '';
    if (!contentType.startsWith('text/csv')) throw new Error(`the CSV came as ${contentType}`);
    let firstByteMs = Number.NaN;
    let lineEnds = 0;
    let bytes = 0;
    let head = '';
    let lastByte = 0;
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      const chunk = read.value;
      if (bytes === 0) firstByteMs = performance.now() - startedAt;
      if (head.length < 400) head += decoder.decode(chunk.subarray(0, 400), { stream: true });
      for (const byte of chunk) if (byte === 0x0a) lineEnds += 1;
      bytes += chunk.length;
      lastByte = chunk.at(-1) ?? lastByte;
    }
    const totalMs = performance.now() - startedAt;
    const header = head.split(/\r?\n/)[0] ?? '';
    if (header.replaceAll('"', '') !== REPORT_CSV_COLUMNS.join(',')) {
      throw new Error(`the CSV's header is not REPORT_CSV_COLUMNS: ${header}`);
    }
    // The header's line is no call; a file may end without a line end after its last row.
    const rows = lineEnds - 1 + (lastByte === 0x0a ? 0 : 1);
    apiRssPeak = Math.max(apiRssPeak, rssBytes(apiPid));
    return {
      rows,
      bytes,
      firstByteMs,
      totalMs,
      rowsPerSecond: rows / (totalMs / 1000),
      apiRssBefore,
      apiRssPeak,
    };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * Reports at scale: a company with 100,000 conversations over 90 days (seed.ts), its admin
 * signed in over HTTP; the summary (90 days, 30 days, business hours only) and the first page
 * of calls timed after warm-up, then the CSV of all 90 days read as it streams.
 */
export async function measureReports(
  stack: BenchStack,
  plan: ReportsPlan,
  log: (line: string) => void,
): Promise<Section> {
  log(`  seeding ${CONVERSATIONS.toLocaleString('en')} conversations over ${DAYS} days…`);
  const company = await seedReportsCompany(stack.databaseUrl, stack.schema, {
    conversations: CONVERSATIONS,
    days: DAYS,
  });
  const written = Object.entries(company.rows)
    .map(([table, count]) => `${table} ${count.toLocaleString('en')}`)
    .join(', ');
  log(`  seeded in ${company.seconds.toFixed(1)} s: ${written}`);
  const token = await signIn(stack.url, company);

  const range = { from: company.firstDay, to: company.lastDay };
  const lastThirtyDays = { from: daysBefore(company.lastDay, 29), to: company.lastDay };
  const hasCalls = (payload: unknown) => {
    const { data } = parsed(reportRoutes.reportSummary, payload);
    if (data.calls === 0) throw new Error('the summary counted no calls of the seeded company');
  };
  const requests: ReportRequest[] = [
    {
      figure: `summary, ${DAYS} days`,
      route: reportRoutes.reportSummary,
      query: range,
      check: hasCalls,
    },
    {
      figure: 'summary, 30 days',
      route: reportRoutes.reportSummary,
      query: lastThirtyDays,
      check: hasCalls,
    },
    {
      figure: `summary, ${DAYS} days, business hours`,
      route: reportRoutes.reportSummary,
      query: { ...range, businessHours: 'true' },
      check: hasCalls,
    },
    {
      figure: 'calls, first page',
      route: reportRoutes.reportCalls,
      query: range,
      check: (payload) => {
        const { data } = parsed(reportRoutes.reportCalls, payload);
        if (data.calls.length === 0 || data.nextCursor === null) {
          throw new Error(`the first page held ${data.calls.length} calls and no next page`);
        }
      },
    },
  ];

  const rows: Row[] = [
    {
      figure: `Reports: seed ${CONVERSATIONS.toLocaleString('en')} conversations`,
      measured: `${company.seconds.toFixed(1)} s`,
      goal: 'reported',
      note: `${DAYS} days; ${written}`,
    },
  ];
  const latency: Record<string, Summary> = {};
  for (const request of requests) {
    const summary = await measureLatency(stack.url, token, request, plan.requests);
    latency[request.figure] = summary;
    const row: Row = {
      figure: `Reports: ${request.figure}`,
      measured: `p50 ${ms(summary.p50)}, p95 ${ms(summary.p95)}`,
      goal: LATENCY_GOAL,
      note: `${summary.n} requests after ${WARM_UP_REQUESTS} warm-up, max ${ms(summary.max)}`,
    };
    rows.push(row);
    log(`  ${row.figure}: ${row.measured} (${row.goal})`);
  }

  const exports: CsvRun[] = [];
  for (let i = 0; i < plan.exports; i += 1) {
    const run = await exportCsv(stack.url, token, stack.apiPid, range);
    exports.push(run);
    log(
      `  CSV export ${i + 1}: ${Math.round(run.rowsPerSecond)} rows/s (${EXPORT_GOAL}); ` +
        `API RSS ${mb(run.apiRssBefore)} → ${mb(run.apiRssPeak)}`,
    );
  }
  // The slowest export is the figure: a user's one export may be that one.
  const slowest = exports.reduce((a, b) => (b.rowsPerSecond < a.rowsPerSecond ? b : a));
  const rssBefore = Math.min(...exports.map((run) => run.apiRssBefore));
  const rssPeak = Math.max(...exports.map((run) => run.apiRssPeak));
  rows.push({
    figure: `Reports: CSV export, ${DAYS} days`,
    measured: `${Math.round(slowest.rowsPerSecond).toLocaleString('en')} rows/s`,
    goal: EXPORT_GOAL,
    note:
      `slowest of ${exports.length}: ${slowest.rows.toLocaleString('en')} rows, ` +
      `${(slowest.bytes / 1024 / 1024).toFixed(1)} MB in ${(slowest.totalMs / 1000).toFixed(1)} s, ` +
      `first byte ${ms(slowest.firstByteMs)}; API RSS ${mb(rssBefore)} → ${mb(rssPeak)}`,
  });
  return {
    rows,
    data: {
      conversations: CONVERSATIONS,
      days: DAYS,
      range,
      seed: { seconds: company.seconds, rows: company.rows },
      warmUpRequests: WARM_UP_REQUESTS,
      latency,
      exports,
    },
    memory: {
      service: 'API',
      idle: rssBefore,
      loaded: rssPeak,
      load: `the reports CSV export of ${CONVERSATIONS.toLocaleString('en')} conversations`,
    },
  };
}
