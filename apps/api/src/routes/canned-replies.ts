import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cannedReplyRoutes as routes } from '@frontdesk/protocol';
import {
  createCannedReply,
  deleteCannedReply,
  listCannedReplies,
  updateCannedReply,
} from '../companies/canned-replies.ts';
import { assertOwnCompany, authenticateStaff, bearerSecurity } from '../plugins/auth.ts';
import { limitAdminWrites } from '../plugins/rate-limits.ts';
import { companyAdminChange, withCompanyEtag } from './company-admin-request.ts';
import { fromTable } from './from-table.ts';

const docs = (summary: string) => ({ tags: ['company admin'], summary, security: bearerSecurity });
const WRITE_ERRORS = [400, 401, 403, 404, 409, 412] as const;

/**
 * Canned replies (issue 19 item 4): the company's staff read them, its admins change them
 * (SECURITY: 401 anonymous, 403 guests and other companies' staff; writes 403 for agents too).
 */
export const cannedReplyRoutes: FastifyPluginAsyncZod = async (app) => {
  limitAdminWrites(app);
  const { db } = app;

  app.route({
    ...fromTable(
      routes.cannedReplies,
      [400, 401, 403],
      docs("The company's canned replies, by shortcut (its agents and admins)"),
    ),
    handler: async (request) => {
      assertOwnCompany(await authenticateStaff(request), request.params.id);
      return { data: await listCannedReplies(db, request.params.id) };
    },
  });

  app.route({
    ...fromTable(routes.createCannedReply, WRITE_ERRORS, docs('Add a canned reply')),
    handler: async (request, reply) => {
      const { id } = request.params;
      const change = await companyAdminChange(request, id);
      const { result, version } = await createCannedReply(db, change, request.body);
      return withCompanyEtag(reply, version).code(201).send({ data: result });
    },
  });

  app.route({
    ...fromTable(routes.updateCannedReply, WRITE_ERRORS, docs('Change a canned reply')),
    handler: async (request, reply) => {
      const { id, replyId } = request.params;
      const change = await companyAdminChange(request, id);
      const { result, version } = await updateCannedReply(db, change, replyId, request.body);
      withCompanyEtag(reply, version);
      return { data: result };
    },
  });

  app.route({
    ...fromTable(routes.deleteCannedReply, WRITE_ERRORS, docs('Delete a canned reply')),
    handler: async (request, reply) => {
      const { id, replyId } = request.params;
      const { version } = await deleteCannedReply(
        db,
        await companyAdminChange(request, id),
        replyId,
      );
      return withCompanyEtag(reply, version).code(204).send(null);
    },
  });
};
