import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@frontdesk/protocol';
import { checkLocation } from '../geofence/location-check.ts';
import { assertOwnCompany, authenticate, bearerSecurity, bearerToken } from '../plugins/auth.ts';
import { RATE_LIMITS } from '../plugins/rate-limits.ts';
import { fromTable } from './from-table.ts';

/**
 * spec §7 `geo-fence/check`: public, as the check comes before the guest may call. With a guest's
 * access token the result is kept for that guest: `call-report/add` lets a call of a company that
 * asks for the location through only after a recent pass (issue 13).
 */
export const geofenceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({
    ...fromTable(routes.geofenceCheck, [400, 401, 403, 404, 429], {
      tags: ['geofence'],
      summary: "200 when the position is inside the company's service area, 403 when outside",
      security: bearerSecurity,
    }),
    config: { rateLimit: RATE_LIMITS.geofence },
    handler: async (request) => {
      const { companyID, ...position } = request.body;
      const principal =
        bearerToken(request) === undefined ? undefined : await authenticate(request);
      const guestId = principal?.role === 'guest' ? principal.guestId : undefined;
      if (principal) assertOwnCompany(principal, companyID);
      await checkLocation(app.db, { companyId: companyID, guestId, ...position });
      return { data: { inside: true as const } };
    },
  });
};
