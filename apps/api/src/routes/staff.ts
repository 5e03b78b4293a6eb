import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { availabilityBodySchema, colleagueSchema, envelope } from '@frontdesk/protocol';
import { authenticateStaff, bearerSecurity } from '../plugins/auth.ts';
import { errorResponses } from '../plugins/errors.ts';
import { listColleagues, reportAvailability } from '../staff/staff-repository.ts';

/** The console's view of the team: names for nicks, and each agent's availability for round robin. */
export const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.get(
    '/staff',
    {
      schema: {
        tags: ['staff'],
        summary: "The caller's company's agents and admins: id, name, jabber username, role",
        security: bearerSecurity,
        response: { 200: envelope(z.array(colleagueSchema)), ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const principal = await authenticateStaff(request);
      return { data: await listColleagues(db, principal.companyId) };
    },
  );

  app.put(
    '/staff/me/availability',
    {
      schema: {
        tags: ['staff'],
        summary: 'Report the caller available, away or busy (repeat it: a report goes stale)',
        security: bearerSecurity,
        body: availabilityBodySchema,
        response: { 204: z.null(), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const principal = await authenticateStaff(request);
      await reportAvailability(db, principal.staffId, request.body.status);
      return reply.code(204).send(null);
    },
  );
};
