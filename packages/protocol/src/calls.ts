import { z } from 'zod';
import { callIdSchema } from './call-id.ts';
import { callTypeSchema } from './call-report.ts';
import { jabberUsernameSchema } from './chat.ts';
import { guestUsernameSchema } from './guest.ts';
import { recordIdSchema } from './ids.ts';

/**
 * A call's Janus room and how to enter it (docs/protocol.md). The API creates the room with its
 * admin key and hands this only to the guest who owns the call and the agent who claimed it.
 */
export const roomAccessSchema = z.object({
  room: z.string(),
  pin: z.string(),
  /** spec §7: set when the company records calls; the media layer passes it to `configure`. */
  recordingFilename: z.string().nullable(),
});
export type RoomAccess = z.infer<typeof roomAccessSchema>;

/** `POST /api/calls/:callId/room` and `/api/calls/claim` take the call id from the path. */
export const callIdParamsSchema = z.strictObject({ callId: callIdSchema });

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

export const claimedCallSchema = z.object({
  callId: callIdSchema,
  reportId: recordIdSchema,
  guestUsername: guestUsernameSchema,
  guestJabberUsername: jabberUsernameSchema,
  categoryId: recordIdSchema.nullable(),
  callType: callTypeSchema.nullable(),
  room: roomAccessSchema,
});
export type ClaimedCall = z.infer<typeof claimedCallSchema>;

/** `POST /api/calls/:callId/end`: who hung up, and whether anyone had answered. */
export const endCallBodySchema = z.strictObject({
  reason: z.enum(['completed', 'abandoned']),
});

/**
 * `POST /api/calls/:callId/transfer` (the agent in the call): hand the guest to another agent or
 * category. The guest learns the target from `GET /api/calls/:callId` when the agent puts it on
 * hold, and continues the chain with `POST /call-report/hold-call` (spec §7).
 */
export const transferBodySchema = z.union([
  z.strictObject({ toAgentJabberUsername: jabberUsernameSchema }),
  z.strictObject({ toCategoryId: recordIdSchema }),
]);

/** `GET /api/calls/:callId`: what either side may know of a call in progress. */
export const callStateSchema = z.object({
  callId: callIdSchema,
  status: z.enum(['waiting', 'answered', 'ended', 'abandoned']),
  agentJabberUsername: jabberUsernameSchema.nullable(),
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
