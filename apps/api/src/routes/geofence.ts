import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  companySettingsSchema,
  envelope,
  geofenceCheckBodySchema,
  geofenceResultSchema,
} from '@frontdesk/protocol';
import { requireCompany } from '../companies/company-repository.ts';
import { insideAnyArea } from '../geofence/zones.ts';
import { errorResponses, HttpError } from '../plugins/errors.ts';
import { RATE_LIMITS } from '../plugins/rate-limits.ts';

/** spec §7 `geo-fence/check`: public, as the check comes before the guest may call. */
export const geofenceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/geo-fence/check',
    {
      config: { rateLimit: RATE_LIMITS.geofence },
      schema: {
        tags: ['geofence'],
        summary: "200 when the position is inside the company's service area, 403 when outside",
        body: geofenceCheckBodySchema,
        response: { 200: envelope(geofenceResultSchema), ...errorResponses(400, 403, 404, 429) },
      },
    },
    async (request) => {
      const { lat, lng, companyID } = request.body;
      const company = await requireCompany(app.db, companyID);
      const zones = await app.db
        .selectFrom('geofence_zones')
        .select('area')
        .where('company_id', '=', company.id)
        .execute();
      if (
        !insideAnyArea(
          zones.map((z) => z.area),
          lat,
          lng,
        )
      ) {
        // spec §4: any failure means outside, so "outside" is a refusal the guest shows as such.
        const { outOfZoneMsg } = companySettingsSchema.parse(company.settings);
        throw new HttpError(
          403,
          'outside_geofence',
          outOfZoneMsg ?? `${company.name} does not serve this location.`,
        );
      }
      return { data: { inside: true as const } };
    },
  );
};
