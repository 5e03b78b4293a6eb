import { envelope } from './envelope.ts';
import {
  reportCallDetailSchema,
  reportCallPageSchema,
  reportCallParamsSchema,
  reportCallsQuerySchema,
  reportSummaryQuerySchema,
  reportSummarySchema,
  supervisorSchema,
  wallboardSchema,
} from './reports.ts';
import type { Route } from './routes.ts';

/**
 * Reports (issue 17, docs/reports.md): the company's own admins only (agents 403), always for
 * the caller's company. Kept out of `routes` so the guest page, which calls none of them, does
 * not carry their schemas. The recording film and the CSV are files, not JSON: their paths are
 * `REPORT_FILE_PATHS`.
 */
export const reportRoutes = {
  reportSummary: {
    method: 'GET',
    path: '/reports/summary',
    query: reportSummaryQuerySchema,
    response: envelope(reportSummarySchema),
  },
  /** JSON pages; with `format=csv` the same path streams a file instead (not through the client). */
  reportCalls: {
    method: 'GET',
    path: '/reports/calls',
    query: reportCallsQuerySchema,
    response: envelope(reportCallPageSchema),
  },
  reportCall: {
    method: 'GET',
    path: '/reports/calls/:callId',
    params: reportCallParamsSchema,
    response: envelope(reportCallDetailSchema),
  },
  wallboard: { method: 'GET', path: '/reports/wallboard', response: envelope(wallboardSchema) },
  /** Who is in which call and who waits, now (issue 19 item 5); the wallboard's signals. */
  supervisor: { method: 'GET', path: '/reports/supervisor', response: envelope(supervisorSchema) },
} as const satisfies Record<string, Route>;

/**
 * The files reports link to, relative to the API's base: a call leg's merged recording (HTTP
 * range requests for seeking; `?download=true` to save it) and the calls CSV (`reportCalls`'
 * query with `format=csv`).
 */
export const REPORT_FILE_PATHS = {
  recording: '/reports/recordings/:callId',
  callsCsv: '/reports/calls',
} as const;
