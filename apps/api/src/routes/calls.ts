import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@frontdesk/protocol';
import { issueJanusToken } from '../auth/credentials.ts';
import {
  assertIceParty,
  assertParticipant,
  claimCall,
  guestSeen,
  liveCallOf,
  listCalls,
  queueOf,
  roomParticipant,
  saveNotes,
  sideOf,
  toCallState,
  toClaimedCall,
  transferCall,
} from '../calls/call-coordination.ts';
import { endReport, requireCall, requireReport } from '../calls/call-reports.ts';
import { releaseCall } from '../calls/call-presence.ts';
import { callIceServers } from '../calls/ice-servers.ts';
import { recordHold } from '../calls/call-events.ts';
import { saveCallQuality } from '../calls/call-quality.ts';
import { authenticate, authenticateStaff, bearerSecurity } from '../plugins/auth.ts';
import { HttpError } from '../plugins/errors.ts';
import { agentFirstName } from '../staff/staff-repository.ts';
import { fromTable } from './from-table.ts';

/** The call protocol between the guest and the agent who takes its call (docs/protocol.md). */
export const callRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, callRooms, callChats } = app;

  app.route({
    ...fromTable(routes.janusToken, [401, 403], {
      tags: ['calls'],
      summary: 'A fresh Janus token for staff, and for a guest with a live call',
      security: bearerSecurity,
    }),
    handler: async (request) => {
      const principal = await authenticate(request);
      // SECURITY: a guest reaches the media server only while a call of its own is live.
      if (principal.role === 'guest' && !(await liveCallOf(db, principal.guestId))) {
        throw new HttpError(
          403,
          'no_live_call',
          'Only a guest in a call may reach the media server.',
        );
      }
      return { data: issueJanusToken(app.config, new Date()) };
    },
  });

  app.route({
    ...fromTable(routes.claimCall, [400, 401, 403, 404, 409, 502], {
      tags: ['calls'],
      summary: "Take a waiting guest's call: one agent wins, the others get 409 already_claimed",
      security: bearerSecurity,
    }),
    handler: async (request) => {
      const principal = await authenticateStaff(request);
      const call = await claimCall(db, principal, request.body);
      // An answered call moves its category's wait estimate.
      app.companyDetails.forget(call.company_id);
      const [room] = await Promise.all([
        // The guest's page said whether it is a webview when it reported the call.
        callRooms.accessOf(call, roomParticipant(principal), { webview: call.webview }),
        callChats.admitAgent(call, principal.staffId),
      ]);
      return { data: toClaimedCall(call, room) };
    },
  });

  app.route({
    ...fromTable(routes.listCalls, [400, 401, 403], {
      tags: ['calls'],
      summary: "The company's waiting or answered calls, with each guest's welcome answers",
      security: bearerSecurity,
    }),
    handler: async (request) => {
      const principal = await authenticateStaff(request);
      return {
        data: await listCalls(db, principal.companyId, request.query, app.config.roundRobinOfferMs),
      };
    },
  });

  app.route({
    ...fromTable(routes.callState, [400, 401, 403, 404], {
      tags: ['calls'],
      summary: "A call's state: waiting, answered, ended or abandoned, and its transfer",
      security: bearerSecurity,
    }),
    handler: async (request) => {
      const principal = await authenticate(request);
      const call = await requireReport(db, principal, request.params.callId);
      if (principal.role === 'guest') await guestSeen(db, call);
      const [queue, agentName] = await Promise.all([
        queueOf(db, call),
        agentFirstName(db, call.agent_id),
      ]);
      return { data: toCallState(call, queue, agentName) };
    },
  });

  app.route({
    ...fromTable(routes.callRoom, [400, 401, 403, 404, 409, 502], {
      tags: ['calls'],
      summary: "Create the call's Janus room if need be; its id, pin and recording file name",
      security: bearerSecurity,
    }),
    handler: async (request) => {
      const principal = await authenticate(request);
      const call = await requireCall(db, request.params.callId);
      assertParticipant(principal, call);
      const room = await callRooms.open(call, roomParticipant(principal), {
        webview: call.webview || request.query.webview === 'true',
      });
      return { data: room };
    },
  });

  app.route({
    ...fromTable(routes.callIce, [400, 401, 403, 404, 409], {
      tags: ['calls'],
      summary:
        "A p2p call's STUN and TURN servers, with fresh relay credentials, for its guest or the agent who took it",
      security: bearerSecurity,
    }),
    handler: async (request) => {
      const principal = await authenticate(request);
      const call = await requireCall(db, request.params.callId);
      assertIceParty(principal, call);
      return {
        data: {
          iceServers: callIceServers(app.config.ice, call.call_id, sideOf(principal)),
        },
      };
    },
  });

  app.route({
    ...fromTable(routes.endCall, [400, 401, 403, 404], {
      tags: ['calls'],
      summary: 'End the call (idempotent): completed once claimed, abandoned before',
      security: bearerSecurity,
    }),
    handler: async (request) => {
      const principal = await authenticate(request);
      const call = await requireCall(db, request.params.callId);
      assertParticipant(principal, call);
      const ended =
        (await endReport(db, call.id, sideOf(principal))) ?? (await requireCall(db, call.call_id));
      if (ended.end_reason !== request.body.reason) {
        // A claim crossed the guest's leaving, or the reverse: the API's record stands.
        request.log.info(
          { callId: call.call_id, said: request.body.reason, recorded: ended.end_reason },
          "call end reason differs from the caller's",
        );
      }
      // Also on a repeated end: it frees a room left behind by a transfer.
      await releaseCall(app, ended);
      return { data: toCallState(ended) };
    },
  });

  app.route({
    ...fromTable(routes.transferCall, [400, 401, 403, 404, 409], {
      tags: ['calls'],
      summary: 'Hand the guest to another agent or category (the agent in the call)',
      security: bearerSecurity,
    }),
    handler: async (request) => {
      const principal = await authenticateStaff(request);
      const call = await requireCall(db, request.params.callId);
      assertParticipant(principal, call);
      return { data: toCallState(await transferCall(db, principal, call, request.body)) };
    },
  });

  app.route({
    ...fromTable(routes.callNotes, [400, 401, 403, 404], {
      tags: ['calls'],
      summary: "Save the agent's notes on the call (also after it ended)",
      security: bearerSecurity,
    }),
    handler: async (request, reply) => {
      const principal = await authenticateStaff(request);
      const call = await requireCall(db, request.params.callId);
      assertParticipant(principal, call);
      await saveNotes(db, call, request.body.notes);
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...fromTable(routes.holdEvent, [400, 401, 403, 404, 409], {
      tags: ['calls'],
      summary:
        'The agent in the call put it on hold or took it back (for reports; a repeat records nothing)',
      security: bearerSecurity,
    }),
    handler: async (request, reply) => {
      const principal = await authenticateStaff(request);
      const call = await requireCall(db, request.params.callId);
      assertParticipant(principal, call);
      await recordHold(db, call, principal.staffId, request.body.onHold);
      // The admins' supervisor view shows who holds a call.
      callChats.teamChanged(call.company_id);
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...fromTable(routes.callQuality, [400, 401, 403, 404, 409], {
      tags: ['calls'],
      summary:
        "One side's media quality of the call (the guest's or its agent's), at its end or on ICE failure; replaces that side's earlier report",
      security: bearerSecurity,
    }),
    handler: async (request, reply) => {
      const principal = await authenticate(request);
      const call = await requireCall(db, request.params.callId);
      assertParticipant(principal, call);
      await saveCallQuality(db, call, sideOf(principal), request.body, new Date());
      return reply.code(204).send(null);
    },
  });
};
