import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Company admin (issue 16): the routes of packages/protocol's company-admin-routes.ts, admins only. */
export const companyAdminRoutes: FastifyPluginAsyncZod = async () => {};
