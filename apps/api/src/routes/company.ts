import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyDetailsSchema, envelope, recordIdTextSchema } from '@frontdesk/protocol';
import { loadCompanyDetails } from '../companies/company-repository.ts';
import { errorResponses } from '../plugins/errors.ts';

/** spec §3 "Company details": public, because the guest needs them before it logs in. */
export const companyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/company/:id',
    {
      schema: {
        tags: ['company'],
        summary: "A company's details, categories, timetable and forms, defaults filled in",
        params: z.strictObject({ id: recordIdTextSchema }),
        response: { 200: envelope(companyDetailsSchema), ...errorResponses(400, 404) },
      },
    },
    async (request) => ({
      data: await loadCompanyDetails(app.db, request.params.id, app.config.xmpp.domain, new Date()),
    }),
  );
};
