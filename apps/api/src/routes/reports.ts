import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { reportRoutes } from '@frontdesk/protocol';
import { authenticateAdmin, bearerSecurity } from '../plugins/auth.ts';
import { recordingsOf } from '../recordings/recording-list.ts';
import { reportCallDetail } from '../reports/call-detail.ts';
import { reportCallPage } from '../reports/call-list.ts';
import { callsCsv, csvFileName } from '../reports/calls-csv.ts';
import { reportScope } from '../reports/report-range.ts';
import { reportSummary } from '../reports/summary.ts';
import { fromTable } from './from-table.ts';

const docs = (summary: string) => ({ tags: ['reports'], summary, security: bearerSecurity });

/**
 * Reports (issue 17, docs/reports.md): the figures, the calls one by one and one call whole.
 * SECURITY: the company's own admins only (401 anonymous, 403 guests and agents), and always of
 * the caller's own company: no route takes a company id, so no admin can name another's.
 */
export const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.route({
    ...fromTable(
      reportRoutes.reportSummary,
      [400, 401, 403],
      docs("The company's figures for a range, a category, an agent, its business hours"),
    ),
    handler: async (request) => {
      const principal = await authenticateAdmin(request);
      const scope = await reportScope(db, principal.companyId, request.query);
      return { data: await reportSummary(db, scope, request.query) };
    },
  });

  app.route({
    ...fromTable(
      reportRoutes.reportCalls,
      [400, 401, 403],
      docs('The conversations of a range, newest first; with format=csv, all of them as a file'),
    ),
    handler: async (request, reply) => {
      const principal = await authenticateAdmin(request);
      const { query } = request;
      const scope = await reportScope(db, principal.companyId, query);
      if (query.format === 'csv') {
        // A file, not the JSON page the route's schema describes: Fastify pipes a stream as is.
        const file: FastifyReply = reply;
        return file
          .header('content-type', 'text/csv; charset=utf-8')
          .header(
            'content-disposition',
            `attachment; filename="${csvFileName(query.from, query.to)}"`,
          )
          .header('cache-control', 'no-store')
          .send(callsCsv(db, scope, query));
      }
      return { data: await reportCallPage(db, scope, query) };
    },
  });

  app.route({
    ...fromTable(
      reportRoutes.reportCall,
      [400, 401, 403, 404],
      docs(
        'One conversation whole: legs, timeline, answers, rating, files, bugs, quality, recordings',
      ),
    ),
    handler: async (request) => {
      const principal = await authenticateAdmin(request);
      const viewer = { companyId: principal.companyId, staffId: principal.staffId };
      const detail = await reportCallDetail(db, principal.companyId, request.params.callId, (ids) =>
        recordingsOf(db, app.config.secrets.apiToken, viewer, ids),
      );
      return { data: detail };
    },
  });
};
