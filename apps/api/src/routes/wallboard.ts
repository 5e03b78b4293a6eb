import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { reportRoutes } from '@frontdesk/protocol';
import { authenticateAdmin, bearerSecurity } from '../plugins/auth.ts';
import { supervisor } from '../reports/supervisor.ts';
import { wallboard } from '../reports/wallboard.ts';
import { fromTable } from './from-table.ts';

/**
 * The live wallboard (issue 17, item 5) and the supervisor view (issue 19, item 5). The console asks again whenever the XMPP server says the
 * calls or the team changed (`calls-changed`, `team-changed`), so the answer is always "now".
 */
export const wallboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({
    ...fromTable(reportRoutes.wallboard, [401, 403], {
      tags: ['reports'],
      summary:
        "The caller's company now: guests waiting by category and the longest wait, the team's states, today's answered, abandoned and service level",
      security: bearerSecurity,
    }),
    handler: async (request) => {
      // SECURITY: admins only (it names the team and their states), and always the caller's own
      // company: the route takes no company to name.
      const principal = await authenticateAdmin(request);
      return { data: await wallboard(app.db, principal.companyId) };
    },
  });

  app.route({
    ...fromTable(reportRoutes.supervisor, [401, 403], {
      tags: ['reports'],
      summary:
        "The caller's company now, for a supervisor: each member's state and the live calls they are in (guest, category, since when, on hold), and the guests waiting",
      security: bearerSecurity,
    }),
    handler: async (request) => {
      // SECURITY: admins only (it names the team, their calls and the guests), and always the
      // caller's own company: the route takes no company to name.
      const principal = await authenticateAdmin(request);
      return { data: await supervisor(app.db, principal.companyId) };
    },
  });
};
