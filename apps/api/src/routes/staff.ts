import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@frontdesk/protocol';
import { authenticateStaff, bearerSecurity } from '../plugins/auth.ts';
import { listColleagues, reportAvailability } from '../staff/staff-repository.ts';
import { fromTable } from './from-table.ts';

/** The console's view of the team: names for nicks, and each agent's availability for round robin. */
export const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.route({
    ...fromTable(routes.staff, [401, 403], {
      tags: ['staff'],
      summary: "The caller's company's agents and admins: id, name, jabber username, role",
      security: bearerSecurity,
    }),
    handler: async (request) => {
      const principal = await authenticateStaff(request);
      return { data: await listColleagues(db, principal.companyId) };
    },
  });

  app.route({
    ...fromTable(routes.availability, [400, 401, 403], {
      tags: ['staff'],
      summary: 'Report the caller available, away or busy (repeat it: a report goes stale)',
      security: bearerSecurity,
    }),
    handler: async (request, reply) => {
      const principal = await authenticateStaff(request);
      if (await reportAvailability(db, principal.staffId, request.body.status)) {
        app.callChats.teamChanged(principal.companyId);
      }
      return reply.code(204).send(null);
    },
  });
};
