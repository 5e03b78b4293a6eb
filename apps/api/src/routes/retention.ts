import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { retentionRoutes as routes } from '@frontdesk/protocol';
import { bearerSecurity } from '../plugins/auth.ts';
import { limitAdminWrites } from '../plugins/rate-limits.ts';
import {
  recentRetentionRuns,
  retentionSettings,
  updateRetentionPeriods,
} from '../privacy/retention.ts';
import { companyAdmin, companyAdminChange, withCompanyEtag } from './company-admin-request.ts';
import { fromTable } from './from-table.ts';

const docs = (summary: string) => ({ tags: ['company admin'], summary, security: bearerSecurity });

/**
 * Retention (issue 20 item 2, decision 0031): the company's admins read and set how long each
 * kind of personal data is kept, and read what the nightly runs deleted. SECURITY: 401
 * anonymous, 403 guests, agents and other companies' admins, before anything is read.
 */
export const retentionRoutesPlugin: FastifyPluginAsyncZod = async (app) => {
  limitAdminWrites(app);
  const { db } = app;

  app.route({
    ...fromTable(routes.retention, [400, 401, 403], docs("The company's retention periods")),
    handler: async (request) => {
      await companyAdmin(request, request.params.id);
      return { data: await retentionSettings(db, request.params.id) };
    },
  });

  app.route({
    ...fromTable(
      routes.updateRetention,
      [400, 401, 403, 404, 412],
      docs("Change the company's retention periods"),
    ),
    handler: async (request, reply) => {
      const { id } = request.params;
      const change = await companyAdminChange(request, id);
      const { result, version } = await updateRetentionPeriods(db, change, request.body);
      withCompanyEtag(reply, version);
      return { data: result };
    },
  });

  app.route({
    ...fromTable(
      routes.retentionRuns,
      [400, 401, 403],
      docs("What the company's last retention runs deleted (counts)"),
    ),
    handler: async (request) => {
      await companyAdmin(request, request.params.id);
      return { data: await recentRetentionRuns(db, request.params.id) };
    },
  });
};
