import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@frontdesk/protocol';
import {
  addCallReport,
  checkCallAdmission,
  holdCall,
  stampCallReport,
  updateCallReport,
} from '../calls/call-reports.ts';
import { issueServiceCredentials } from '../auth/credentials.ts';
import { asCompanyKeepsAddresses } from '../privacy/ip-addresses.ts';
import { authenticate, authenticateGuest, bearerSecurity } from '../plugins/auth.ts';
import { accountKey, companyKey, limitInOrder, RATE_LIMITS } from '../plugins/rate-limits.ts';
import { guestJabberUsername, userJid } from '../xmpp/addresses.ts';
import { fromTable } from './from-table.ts';

/** spec §7 "Reporting": one report per call, chained across holds and transfers. */
export const callReportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;

  // `navigator.sendBeacon` sends a string body as text/plain; in this plugin such a body is JSON.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(
    'text/plain',
    { parseAs: 'string' },
    app.getDefaultJsonParser('error', 'error'),
  );

  // Per address, per guest (or member of staff), per company: one statement (decision 0043).
  const callLimits = {
    preHandler: limitInOrder(app, RATE_LIMITS.guestActions, [
      ['callsPerGuest', accountKey],
      ['callsPerCompany', companyKey],
    ]),
  };

  app.route({
    ...fromTable(routes.addCallReport, [400, 401, 403, 429, 503], {
      tags: ['call reports'],
      summary: 'Report a new call; the status says whether it may start (ok, outOfQuota, blocked)',
      security: bearerSecurity,
    }),
    ...callLimits,
    handler: async (request, reply) => {
      const principal = await authenticateGuest(request);
      app.drain.refuseNewCalls();
      const now = new Date();
      const { report, created, replaced } = await addCallReport(
        db,
        principal,
        request.body,
        (id) => app.companyDetails.get(id, now),
        now,
        request.headers['user-agent'] ?? null,
      );
      // SECURITY: the chat and media servers are reached only by a guest whose call was let
      // through (and relay credentials come only with the call's room, decision 0015). The
      // replaced calls' chats, rooms and recordings and the new call's chat and credentials go
      // side by side (CallChats.replace orders what must be ordered).
      const [services] = await Promise.all([
        report.status === 'ok'
          ? issueServiceCredentials(
              config,
              userJid(
                guestJabberUsername(principal.companyId, principal.username),
                config.xmpp.domain,
              ),
              now,
            )
          : undefined,
        app.callChats.replace(
          replaced,
          report.status === 'ok' && report.ended_at === null ? report : undefined,
        ),
        ...replaced.map(async (ended) => {
          await app.callRooms.close(ended);
          await app.recordingJobs.mergeAfterCall(ended);
        }),
      ]);
      return reply.code(created ? 201 : 200).send({
        data: { status: report.status, id: report.id, services, callMethod: report.call_method },
      });
    },
  });

  app.route({
    ...fromTable(routes.callAdmission, [400, 401, 403, 429], {
      tags: ['call reports'],
      summary:
        'Whether a call would be let through now (blocked, outOfQuota, 403 for the company rules, ok), recording nothing',
      security: bearerSecurity,
    }),
    config: { rateLimit: RATE_LIMITS.guestActions },
    handler: async (request) => {
      const principal = await authenticateGuest(request);
      const now = new Date();
      const status = await checkCallAdmission(
        db,
        principal,
        request.body.company,
        (id) => app.companyDetails.get(id, now),
        now,
      );
      return { data: { status } };
    },
  });

  app.route({
    ...fromTable(routes.holdCall, [400, 401, 403, 404, 409, 429], {
      tags: ['call reports'],
      summary: 'Move a call to a new call id in the same chain (hold, transfer)',
      security: bearerSecurity,
    }),
    ...callLimits,
    handler: async (request, reply) => {
      const principal = await authenticate(request);
      const report = await holdCall(db, principal, request.body, (id) =>
        app.companyDetails.get(id, new Date()),
      );
      await app.callChats.open(report);
      return reply.code(201).send({ data: { id: report.id, callMethod: report.call_method } });
    },
  });

  app.route({
    ...fromTable(routes.updateCallReport, [400, 401, 403, 404], {
      tags: ['call reports'],
      summary: 'Change fields of a call report',
      security: bearerSecurity,
    }),
    handler: async (request) => {
      const { call_id, ...sent } = request.body;
      const principal = await authenticate(request);
      // The SDPs of a failed call name the guest's addresses (decision 0033).
      const changes = await asCompanyKeepsAddresses(db, principal.companyId, sent);
      return { data: await updateCallReport(db, principal, call_id, changes) };
    },
  });

  // spec §7 says PUT; sendBeacon can only POST, so both methods lead here.
  for (const route of [routes.stampCallReport, routes.stampCallReportByBeacon]) {
    app.route({
      ...fromTable(route, [400, 401, 403, 404], {
        tags: ['call reports'],
        summary:
          'Stamp call_initiated or guest_exit with the server time (PUT; POST for sendBeacon, token in the body)',
        security: bearerSecurity,
      }),
      handler: async (request) => {
        const { call_id, call_initiated_timestamp, guest_exit_timestamp, access_token } =
          request.body;
        const principal = await authenticate(request, access_token);
        const report = await stampCallReport(db, principal, call_id, {
          callInitiated: call_initiated_timestamp === true,
          guestExit: guest_exit_timestamp === true,
        });
        return { data: report };
      },
    });
  }
};
