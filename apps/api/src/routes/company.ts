import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@frontdesk/protocol';
import { companyEtag } from '../audit/company-changes.ts';
import { fromTable } from './from-table.ts';

/** spec §3 "Company details": public, because the guest needs them before it logs in. */
export const companyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({
    ...fromTable(routes.company, [400, 404], {
      tags: ['company'],
      summary: "A company's details, categories, timetable and forms, defaults filled in",
    }),
    // Every guest page opens with this call. The kept details were checked against the
    // schema when they were loaded and errors come from our own handler, so answers here
    // skip being checked again on the way out.
    serializerCompiler: () => (data) => JSON.stringify(data),
    handler: async (request, reply) => {
      const details = await app.companyDetails.get(request.params.id, new Date());
      // An admin's edit sends this back as If-Match (changeCompany refuses a stale one).
      void reply.header('etag', companyEtag(details.version));
      return { data: details };
    },
  });
};
