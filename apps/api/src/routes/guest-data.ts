import { join } from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guestDataRoutes as routes, guestExportRoute } from '@frontdesk/protocol';
import { recordAuditEntry, staffActor } from '../audit/company-changes.ts';
import { bearerSecurity } from '../plugins/auth.ts';
import { accountKey, limitAdminWrites, limitBy } from '../plugins/rate-limits.ts';
import { findGuests, guestHoldings, holdingsCounts } from '../privacy/guest-data.ts';
import { eraseGuest } from '../privacy/guest-erasure.ts';
import { guestArchive } from '../privacy/guest-export.ts';
import { companyAdmin } from './company-admin-request.ts';
import { fromTable } from './from-table.ts';

const docs = (summary: string) => ({ tags: ['company admin'], summary, security: bearerSecurity });

/**
 * A guest's rights (issue 20 item 3, decision 0032). SECURITY: the company's admins only — 401
 * anonymous, 403 guests, agents and other companies' admins, 404 for a guest of another company.
 */
export const guestDataRoutesPlugin: FastifyPluginAsyncZod = async (app) => {
  limitAdminWrites(app);
  const { db, config, fileStorage } = app;
  const recordingsDir = join(config.dataDir, 'recordings');

  app.route({
    ...fromTable(routes.findGuests, [400, 401, 403], docs("Find the company's guests")),
    handler: async (request) => {
      await companyAdmin(request, request.params.id);
      return { data: await findGuests(db, request.params.id, request.query) };
    },
  });

  app.route({
    method: 'GET',
    url: guestExportRoute.path,
    schema: {
      ...docs('Everything held about a guest, as one ZIP (data.json, files/, recordings/)'),
      params: guestExportRoute.params,
    },
    preHandler: limitBy(app, 'guestExports', accountKey),
    handler: async (request, reply) => {
      const { id, guestId } = request.params;
      const principal = await companyAdmin(request, id);
      const holdings = await guestHoldings(db, id, guestId);
      const actor = await staffActor(db, principal.staffId);
      await db.transaction().execute((trx) =>
        recordAuditEntry(trx, id, actor, {
          action: 'guest.export',
          target: `guest ${guestId}`,
          before: null,
          after: holdingsCounts(holdings),
        }),
      );
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="guest-${guestId}.zip"`)
        .header('cache-control', 'no-store')
        .send(guestArchive(holdings, { fileStorage, recordingsDir }));
    },
  });

  app.route({
    ...fromTable(routes.eraseGuest, [400, 401, 403, 404, 409], docs("Erase a guest's data")),
    handler: async (request) => {
      const { id, guestId } = request.params;
      const principal = await companyAdmin(request, id);
      const erased = await eraseGuest(db, id, guestId, await staffActor(db, principal.staffId), {
        fileStorage,
        recordingsDir,
        monitoringDir: join(config.dataDir, 'monitoring'),
        xmpp: { adminApiUrl: config.xmpp.adminUrl, domain: config.xmpp.domain },
      });
      return { data: erased };
    },
  });
};
