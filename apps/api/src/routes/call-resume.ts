import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@frontdesk/protocol';
import { issueServiceCredentials } from '../auth/credentials.ts';
import { roomParticipant, toClaimedCall } from '../calls/call-coordination.ts';
import { isOnHold } from '../calls/call-events.ts';
import { rejoinCall, resumeCall } from '../calls/call-resume.ts';
import { authenticateGuest, authenticateStaff, bearerSecurity } from '../plugins/auth.ts';
import { RATE_LIMITS } from '../plugins/rate-limits.ts';
import { guestJabberUsername, staffJabberUsername, userJid } from '../xmpp/addresses.ts';
import { fromTable } from './from-table.ts';

/**
 * The same conversation after a page went away and came back: the guest's (decision 0025) and
 * the agent's (decision 0027).
 */
export const callResumeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, callRooms, callChats } = app;

  app.route({
    ...fromTable(routes.resumeCall, [400, 401, 403, 404, 409, 429], {
      tags: ['calls'],
      summary:
        "The call's own guest takes it up again after a reload (within a minute of leaving): its state and fresh chat and media credentials",
      security: bearerSecurity,
    }),
    config: { rateLimit: RATE_LIMITS.guestActions },
    handler: async (request) => {
      const principal = await authenticateGuest(request);
      const now = new Date();
      const resumed = await resumeCall(db, principal, request.params.callId, now);
      // SECURITY: the same credentials `call-report/add` gives the guest of a live call.
      const services = await issueServiceCredentials(
        config,
        userJid(guestJabberUsername(principal.companyId, principal.username), config.xmpp.domain),
        now,
      );
      const { call } = resumed;
      return {
        data: {
          callId: call.call_id,
          reportId: call.id,
          originCallId: call.origin_call_id,
          status: resumed.status,
          categoryId: call.category_id,
          callType: resumed.callType,
          callMethod: call.call_method,
          createdAt: call.created_at.toISOString(),
          agentJabberUsername: call.agent_id === null ? null : staffJabberUsername(call.agent_id),
          waitingFor: resumed.waitingFor,
          services,
        },
      };
    },
  });

  app.route({
    ...fromTable(routes.rejoinCall, [400, 401, 403, 404, 409, 502], {
      tags: ['calls'],
      summary:
        'The agent who took a live call takes it up again after its console reloaded: the call as the claim gave it, with fresh room access, and whether the agent had it on hold',
      security: bearerSecurity,
    }),
    handler: async (request) => {
      const principal = await authenticateStaff(request);
      const call = await rejoinCall(db, principal, request.params.callId);
      // As the claim: a fresh entry in the room's allowed list; the chat room's membership and
      // the guest's permission to message this agent are given again (both idempotent).
      const [room, onHold] = await Promise.all([
        callRooms.accessOf(call, roomParticipant(principal), { webview: call.webview }),
        isOnHold(db, call.id),
        callChats.admitAgent(call, principal.staffId),
      ]);
      return { data: { ...toClaimedCall(call, room), onHold } };
    },
  });
};
