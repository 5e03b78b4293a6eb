import { z } from 'zod';
import { callIdSchema } from './call-id.ts';
import { callTypeSchema } from './call-report.ts';
import { assignmentGroupSchema, callMethodSchema } from './company.ts';
import { iceServerSchema } from './config.ts';
import { jabberUsernameSchema } from './chat.ts';
import { answersSchema } from './forms.ts';
import { guestUsernameSchema } from './guest.ts';
import { recordIdSchema, recordIdTextSchema } from './ids.ts';
import { roomTokenSchema } from './media-gate.ts';

/**
 * A Janus server of the API's pool, by its short name (decision 0039): its `RoomAccess` names the
 * server a call's room is on, and the media layer opens `/janus-ws?server=<name>`.
 */
export const mediaServerNameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be a short slug: a-z, 0-9 and -, a letter first');

/**
 * A call's Janus room and how to enter it (docs/protocol.md). The API creates the room with its
 * admin key and hands this only to the guest who owns the call and the agent who claimed it.
 */
export const roomAccessSchema = z.object({
  room: z.string(),
  pin: z.string(),
  /**
   * The Janus server the room is on (decision 0039): the media layer connects through
   * `/janus-ws?server=<name>`. Asked again after a lost session, it may name another server (the
   * call was moved off a lost one). Not a secret: it opens nothing without the pin and token.
   */
  server: mediaServerNameSchema,
  /**
   * This participant's own entry in the room's `allowed` list (decision 0008): the publisher
   * `join` carries it. SECURITY: the pin alone no longer admits anyone.
   */
  token: roomTokenSchema,
  /**
   * spec §7: whether the call is recorded. Janus records the whole room by itself and names
   * the files; no browser chooses a recording name any more (decision 0008).
   */
  recorded: z.boolean(),
  /**
   * The STUN server and the TURN relays for this participant's peer connections, the relays
   * with credentials that expire within the hour (decision 0015). SECURITY: only a party of a live
   * call gets relay credentials, fresh each time it asks for the room again (a reconnect).
   */
  iceServers: z.array(iceServerSchema),
});
export type RoomAccess = z.infer<typeof roomAccessSchema>;

/** The routes under `/api/calls/:callId` take the call id from the path. */
export const callIdParamsSchema = z.strictObject({ callId: callIdSchema });

/**
 * `POST /api/calls/:callId/room?webview=true`: spec §7, a page opened with `webview=true` gets
 * an H.264 room (the first participant to ask decides, as Janus keeps the room it made).
 */
export const callRoomQuerySchema = z.strictObject({
  webview: z.enum(['true', 'false']).optional(),
});

/**
 * `POST /api/calls/:callId/ice`: the STUN server and TURN relays for a p2p call's peer connection
 * (decision 0045), with relay credentials fresh at each ask. SECURITY: only the call's guest and
 * the agent who claimed it, while the call is answered (the guest: also while it waits, to be
 * ready), get any.
 */
export const callIceSchema = z.object({ iceServers: z.array(iceServerSchema) });
export type CallIce = z.infer<typeof callIceSchema>;

/** `POST /api/auth/janus-token`: a fresh Janus token for whoever is logged in. */
export const janusTokenSchema = z.object({ janusToken: z.string(), expiresAt: z.iso.datetime() });

/**
 * `POST /api/calls/claim` (agents): take the guest's open call. Exactly one agent wins; the
 * others get 409 `already_claimed`.
 */
export const claimCallBodySchema = z.strictObject({
  guestUsername: guestUsernameSchema,
  categoryId: recordIdSchema,
});
export type ClaimCallBody = z.infer<typeof claimCallBodySchema>;

/** A call and its guest, as the agent's side sees them. */
const agentCallSchema = z.object({
  callId: callIdSchema,
  reportId: recordIdSchema,
  guestUsername: guestUsernameSchema,
  guestJabberUsername: jabberUsernameSchema,
  categoryId: recordIdSchema.nullable(),
  callType: callTypeSchema.nullable(),
  /** How the call's media travels (decision 0045), fixed when the call was made. */
  callMethod: callMethodSchema,
});

export const claimedCallSchema = agentCallSchema.extend({
  /** The call's media-server room; `null` for a p2p call, which has none (`callIce` instead). */
  room: roomAccessSchema.nullable(),
  /** When the agent took the call (ISO 8601, the API's clock): the call's timer counts from it. */
  answeredAt: z.iso.datetime(),
});
export type ClaimedCall = z.infer<typeof claimedCallSchema>;

/**
 * `POST /api/calls/:callId/rejoin` (decision 0027): the claim's answer again, with what a
 * reloaded console must show as it was — whether its agent had put the call on hold (the guest
 * still shows the hold). Nothing the owner agent did not already know.
 */
export const rejoinedCallSchema = claimedCallSchema.extend({ onHold: z.boolean() });

/** How a call ended: `completed` after an agent had claimed it, `abandoned` before. */
export const callEndReasonSchema = z.enum(['completed', 'abandoned']);
export type CallEndReason = z.infer<typeof callEndReasonSchema>;

/**
 * `POST /api/calls/:callId/end`: how the caller saw the call end. The API records `completed`
 * when an agent had claimed the call and `abandoned` when none had, whatever the body says (a
 * claim can cross a guest's leaving); the answer's `status` is what was recorded.
 */
export const endCallBodySchema = z.strictObject({ reason: callEndReasonSchema });

/**
 * `POST /api/calls/:callId/transfer` (the agent in the call): hand the guest to another agent or
 * category. The guest learns the target from `GET /api/calls/:callId` when the agent puts it on
 * hold, and continues the chain with `POST /call-report/hold-call` (spec §7).
 */
export const transferBodySchema = z.union([
  z.strictObject({ toAgentJabberUsername: jabberUsernameSchema }),
  z.strictObject({ toCategoryId: recordIdSchema }),
]);
export type TransferBody = z.infer<typeof transferBodySchema>;

/**
 * Where a waiting call stands in its category (spec: waiting stage, "queue position"): 1 for the
 * call that has waited longest. Counted by the API, as no guest sees another (decision 0010).
 */
export const queueSchema = z.object({
  position: z.number().int().min(1),
  /** How many calls wait in the category, this one included. */
  waiting: z.number().int().min(1),
});
export type Queue = z.infer<typeof queueSchema>;

/**
 * How often a waiting guest asks `GET /api/calls/:callId` for its place. The API counts a call in
 * the queue while its guest has asked within three of these (or since the call began).
 */
export const QUEUE_POLL_MS = 5000;

/** What a waiting guest sees: its place and a rough estimate of the wait left. */
export interface QueuePlace extends Queue {
  estimatedWaitMs: number;
}

/**
 * The estimate is the category's average wait (the API's moving average of how long recent
 * guests waited before an agent took them) per call up to and including this one, less what
 * this one already waited: rough, never negative.
 */
export function queuePlace(queue: Queue, averageWaitMs: number, waitedMs: number): QueuePlace {
  return {
    ...queue,
    estimatedWaitMs: Math.max(0, Math.round(averageWaitMs * queue.position - waitedMs)),
  };
}

/** `GET /api/calls/:callId`: what either side may know of a call in progress. */
export const callStateSchema = z.object({
  callId: callIdSchema,
  status: z.enum(['waiting', 'answered', 'ended', 'abandoned']),
  /** How the call's media travels (decision 0045), fixed when the call was made. */
  callMethod: callMethodSchema,
  /** Its place in the queue while it waits; `null` otherwise. */
  queue: queueSchema.nullable(),
  agentJabberUsername: jabberUsernameSchema.nullable(),
  /**
   * The first name of the agent who took the call, which the guest's call screen shows (issue
   * 18; the first word of the name the company gave its member of staff); `null` while no agent
   * has taken it, and in the answers of `end` and `transfer` (which may leave it out).
   */
  agentName: z.string().nullable().default(null),
  transfer: z
    .object({
      toAgentJabberUsername: jabberUsernameSchema.nullable(),
      toCategoryId: recordIdSchema.nullable(),
    })
    .nullable(),
});
export type CallState = z.infer<typeof callStateSchema>;

/** `PUT /api/calls/:callId/notes` (the agent who took the call). */
export const callNotesBodySchema = z.strictObject({ notes: z.string().max(10_000) });

/**
 * `GET /api/calls?status=waiting|answered&categoryId=&perCategory=&after=` (agents and admins):
 * each category's oldest `perCategory` calls, so a flood in one category never hides another's;
 * `after` (a report id of the category) pages on within one category.
 */
export const callListQuerySchema = z
  .strictObject({
    status: z.enum(['waiting', 'answered']).default('waiting'),
    categoryId: recordIdTextSchema.optional(),
    perCategory: z.coerce.number().int().min(1).max(200).default(50),
    after: recordIdTextSchema.optional(),
  })
  .refine((query) => query.after === undefined || query.categoryId !== undefined, {
    message: 'pages within one category: name categoryId too',
    path: ['after'],
  });
export type CallListQuery = z.infer<typeof callListQuerySchema>;

/** One open call as the console shows it beside a guest of its queue. */
export const callSummarySchema = agentCallSchema.extend({
  /** The agent who took it; `null` while it waits. */
  agentJabberUsername: jabberUsernameSchema.nullable(),
  createdAt: z.iso.datetime(),
  answeredAt: z.iso.datetime().nullable(),
  /** The guest's latest answers to the company's welcome form, if it filled one in. */
  welcomeAnswers: answersSchema.nullable(),
  /**
   * Which of those answers the company's own site vouched for with a signed identity (decision
   * 0021); absent or empty: none.
   */
  welcomeVerified: z.array(z.string()).optional(),
  /** How many calls the guest made before this one (a transferred call counts once). */
  previousCalls: z.number().int().nonnegative(),
  /**
   * The assignment group the guest picked (decision 0019), named as the company names it now;
   * `name` is `null` when the company has removed the group since. `null`: none picked.
   */
  assignmentGroup: assignmentGroupSchema
    .extend({ name: assignmentGroupSchema.shape.name.nullable() })
    .nullable(),
  /**
   * Round robin (docs/protocol.md step 3): the agent the call is offered to now and until when;
   * `null` when the company does not use round robin or no agent is available.
   */
  offer: z
    .object({ agentJabberUsername: jabberUsernameSchema, until: z.iso.datetime() })
    .nullable(),
});

/** `GET /api/calls`: the open calls, each category's oldest first. */
export const callListSchema = z.array(callSummarySchema);
export type CallSummary = z.infer<typeof callSummarySchema>;
