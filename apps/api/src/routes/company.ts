import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes, type EmbedConfig } from '@frontdesk/protocol';
import { companyEtag } from '../audit/company-changes.ts';
import { ForbiddenError } from '../domain-errors.ts';
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

  app.route({
    ...fromTable(routes.embedConfig, [400, 403, 404], {
      tags: ['company'],
      summary: "The embed loader's launcher, for a site in the company's allowedOrigins",
    }),
    handler: async (request, reply) => {
      const details = await app.companyDetails.get(request.params.id, new Date());
      const origin = request.headers.origin;
      void reply.header('vary', 'origin');
      // SECURITY (decision 0021): a browser reads this from another site only when the company
      // lists that site; any other gets a refusal it may read neither, so the loader shows
      // nothing there. The frame's CSP frame-ancestors is what really keeps the widget off it.
      if (origin !== undefined && origin !== `${request.protocol}://${request.host}`) {
        if (!details.allowedOrigins.includes(origin)) {
          throw new ForbiddenError(
            'origin_not_allowed',
            `${origin} is not one of company ${details.id}'s allowedOrigins.`,
            { origin: "must be in the company's allowedOrigins" },
          );
        }
        void reply.header('access-control-allow-origin', origin);
      }
      // The launcher is a button: the company's button colours (its categories'), else its page's.
      const [launcherColor, launcherTextColor] = details.categoryBackgroundColor
        ? [details.categoryBackgroundColor, details.categoryTextColor]
        : [details.backgroundColor, details.textColor];
      const data: EmbedConfig = {
        companyId: details.id,
        name: details.name,
        launcherColor,
        launcherTextColor,
        pageDirection: details.pageDirection,
      };
      return { data };
    },
  });
};
