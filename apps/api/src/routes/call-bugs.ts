import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@frontdesk/protocol';
import { recordCallBug } from '../calls/call-bugs.ts';
import { assertOwnCallId } from '../calls/call-reports.ts';
import { assertOwnUsername, authenticateGuest, bearerSecurity } from '../plugins/auth.ts';
import { asCompanyKeepsAddresses } from '../privacy/ip-addresses.ts';
import { accountKey, limitBy, RATE_LIMITS } from '../plugins/rate-limits.ts';
import { fromTable } from './from-table.ts';

/** spec §7 `call-bug/by-guest`: what the guest knew when a call's media set-up failed (spec §4). */
export const callBugRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({
    ...fromTable(routes.reportCallBug, [400, 401, 403, 429], {
      tags: ['call reports'],
      summary: "Report a failed call with the guest's log, state and browser",
      security: bearerSecurity,
    }),
    config: { rateLimit: RATE_LIMITS.guestActions },
    preHandler: limitBy(app, 'bugsPerGuest', accountKey),
    handler: async (request, reply) => {
      const principal = await authenticateGuest(request);
      const body = request.body;
      assertOwnUsername(principal, body.guest_id);
      assertOwnCallId(principal, body.call_id, 'call_id');
      // The browser's log may quote its addresses (decision 0033).
      const bug = await asCompanyKeepsAddresses(app.db, principal.companyId, body);
      const id = await recordCallBug(app.db, principal, bug);
      return reply.code(201).send({ data: { id } });
    },
  });
};
