import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminRoutes } from '@frontdesk/protocol';
import {
  loadCompanySchedule,
  removeSchedule,
  replaceSchedule,
} from '../companies/schedule-changes.ts';
import { bearerSecurity } from '../plugins/auth.ts';
import { companyAdmin, companyAdminChange, withCompanyEtag } from './company-admin-request.ts';
import { fromTable } from './from-table.ts';
import { limitAdminWrites } from '../plugins/rate-limits.ts';

const docs = (summary: string) => ({
  tags: ['company admin'],
  summary,
  security: bearerSecurity,
});

/**
 * Company admin (issue 16): the company's timetable (docs/admin-api.md, "Timetable"), for its
 * own admins only. Each write goes through changeCompany: audited, refused (412) against a stale
 * `If-Match`, and seen at once by every guest: this process forgets the company's public
 * details as the write returns, the others when the change feed tells them (its notice comes
 * asynchronously, so a guest of this process could otherwise be answered the old timetable).
 */
export const scheduleAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  limitAdminWrites(app);
  const { db } = app;

  app.route({
    ...fromTable(
      adminRoutes.companySchedule,
      [400, 401, 403, 404],
      docs('The timetable for editing: zone, week, exceptions up to a year past'),
    ),
    handler: async (request, reply) => {
      await companyAdmin(request, request.params.id);
      const schedule = await loadCompanySchedule(db, request.params.id, new Date());
      withCompanyEtag(reply, schedule.version);
      return { data: schedule };
    },
  });

  app.route({
    ...fromTable(
      adminRoutes.replaceCompanySchedule,
      [400, 401, 403, 404, 412],
      docs('Replaces the whole timetable (If-Match: the ETag of the last read)'),
    ),
    handler: async (request, reply) => {
      const change = await companyAdminChange(request, request.params.id);
      const schedule = await replaceSchedule(db, change, request.body, new Date());
      app.companyDetails.forget(request.params.id);
      withCompanyEtag(reply, schedule.version);
      return { data: schedule };
    },
  });

  app.route({
    ...fromTable(
      adminRoutes.removeCompanySchedule,
      [400, 401, 403, 404, 412],
      docs('Removes the timetable: the company is open at every hour'),
    ),
    handler: async (request, reply) => {
      const change = await companyAdminChange(request, request.params.id);
      const schedule = await removeSchedule(db, change, new Date());
      app.companyDetails.forget(request.params.id);
      withCompanyEtag(reply, schedule.version);
      return { data: schedule };
    },
  });
};
