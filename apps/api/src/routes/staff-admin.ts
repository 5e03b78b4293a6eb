import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Company admin (issue 16): the routes of packages/protocol's staff-admin-routes.ts, admins only. */
export const staffAdminRoutes: FastifyPluginAsyncZod = async () => {};
