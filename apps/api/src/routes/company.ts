import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyDetailsSchema, envelope, recordIdTextSchema } from '@frontdesk/protocol';
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
      // Every guest page opens with this call. The kept details were checked against the
      // schema when they were loaded and errors come from our own handler, so answers here
      // skip being checked again on the way out.
      serializerCompiler: () => (data) => JSON.stringify(data),
    },
    async (request) => ({ data: await app.companyDetails.get(request.params.id, new Date()) }),
  );
};
