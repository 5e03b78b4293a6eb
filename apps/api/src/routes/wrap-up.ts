import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { wrapUpRoutes as routes } from '@frontdesk/protocol';
import { assertParticipant } from '../calls/call-coordination.ts';
import { requireCall } from '../calls/call-reports.ts';
import { listOutcomeCodes, setOutcomeCodes, wrapUpCall } from '../calls/wrap-up.ts';
import { assertOwnCompany, authenticateStaff, bearerSecurity } from '../plugins/auth.ts';
import { limitAdminWrites } from '../plugins/rate-limits.ts';
import { companyAdminChange, withCompanyEtag } from './company-admin-request.ts';
import { fromTable } from './from-table.ts';

/**
 * Wrap-up after a call (issue 19 item 3). SECURITY: outcome codes — 401 anonymous, 403 guests
 * and other companies' staff, writes 403 for agents; a wrap-up only by the agent who took the
 * call (403 for a colleague, an admin, another company’s staff or the guest).
 */
export const wrapUpRoutesPlugin: FastifyPluginAsyncZod = async (app) => {
  limitAdminWrites(app);
  const { db } = app;

  app.route({
    ...fromTable(routes.outcomeCodes, [400, 401, 403], {
      tags: ['company admin'],
      summary: "The company's call outcome codes, in order (its agents and admins)",
      security: bearerSecurity,
    }),
    handler: async (request) => {
      assertOwnCompany(await authenticateStaff(request), request.params.id);
      return { data: await listOutcomeCodes(db, request.params.id) };
    },
  });

  app.route({
    ...fromTable(routes.setOutcomeCodes, [400, 401, 403, 404, 412], {
      tags: ['company admin'],
      summary: "Replace the company's call outcome codes (its admins)",
      security: bearerSecurity,
    }),
    handler: async (request, reply) => {
      const change = await companyAdminChange(request, request.params.id);
      const { result, version } = await setOutcomeCodes(db, change, request.body);
      withCompanyEtag(reply, version);
      return { data: result };
    },
  });

  app.route({
    ...fromTable(routes.callWrapUp, [400, 401, 403, 404], {
      tags: ['calls'],
      summary: 'Wrap up a call: its outcome and follow-up (the agent who took it)',
      security: bearerSecurity,
    }),
    handler: async (request) => {
      const principal = await authenticateStaff(request);
      const call = await requireCall(db, request.params.callId);
      assertParticipant(principal, call);
      return { data: await wrapUpCall(db, call, request.body) };
    },
  });
};
