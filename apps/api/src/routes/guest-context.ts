import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guestContextRoutes } from '@frontdesk/protocol';
import { guestContextOf } from '../guests/guest-context.ts';
import { authenticateStaff, bearerSecurity } from '../plugins/auth.ts';
import { fromTable } from './from-table.ts';

/**
 * The agent's guest panel (issue 19 item 2). SECURITY: staff of the call's company only — 401
 * anonymous, 403 a guest (even the call's own), 404 a call of another company.
 */
export const guestContextRoutesPlugin: FastifyPluginAsyncZod = async (app) => {
  app.route({
    ...fromTable(guestContextRoutes.guestContext, [400, 401, 403, 404], {
      tags: ['calls'],
      summary:
        "A call's guest for the agent: name, welcome answers, earlier calls, location, browser",
      security: bearerSecurity,
    }),
    handler: async (request) => {
      const principal = await authenticateStaff(request);
      return { data: await guestContextOf(app.db, principal.companyId, request.params.callId) };
    },
  });
};
