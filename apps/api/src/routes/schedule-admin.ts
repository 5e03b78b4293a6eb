import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Company admin (issue 16): the routes of packages/protocol's schedule-admin-routes.ts, admins only. */
export const scheduleAdminRoutes: FastifyPluginAsyncZod = async () => {};
