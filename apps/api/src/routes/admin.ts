import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@frontdesk/protocol';
import { apiDoctorReport } from '../doctor/api-checks.ts';
import { authenticateAdmin, bearerSecurity } from '../plugins/auth.ts';
import { fromTable } from './from-table.ts';

/** What only a company's admins may ask of the installation. */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app;

  app.route({
    ...fromTable(routes.doctor, [401, 403], {
      tags: ['system'],
      summary:
        'The self-test as the API sees it (public URL, TURN, clock, data folder) and relay credentials for the browser’s check',
      security: bearerSecurity,
    }),
    handler: async (request) => {
      // SECURITY: the answer names internal paths and addresses and carries relay credentials:
      // admins only, checked before anything is looked at.
      const principal = await authenticateAdmin(request);
      return {
        data: await apiDoctorReport(
          { dataDir: config.dataDir, publicSide: config.publicSide, ice: config.ice },
          principal.staffId,
        ),
      };
    },
  });
};
