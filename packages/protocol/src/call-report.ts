import { z } from 'zod';
import { callIdSchema } from './call-id.ts';
import { assignmentGroupSchema, callMethodSchema } from './company.ts';
import { RATING_SCALE_MAX } from './forms.ts';
import { guestUsernameSchema, serviceCredentialsSchema } from './guest.ts';
import { recordIdSchema } from './ids.ts';
import type { GuestStage } from './stages.ts';

/** spec §3: where the call started ("site"); the embeddable widget is the other source. */
export const callSourceSchema = z.enum(['site', 'widget']);
export type CallSource = z.infer<typeof callSourceSchema>;

export const callTypeSchema = z.enum(['voice', 'video']);
export type CallType = z.infer<typeof callTypeSchema>;

/**
 * spec §4 "Report initialisation": `outOfQuota` (the company's monthly call quota is used up)
 * and `blocked` (the guest is on the company's block list) stop the call; `ok` lets it start.
 */
export const callReportStatusSchema = z.enum(['ok', 'outOfQuota', 'blocked']);
export type CallReportStatus = z.infer<typeof callReportStatusSchema>;

/**
 * Why `POST /call-report/add` refuses a call outright (403, this `code`): the company's own rules,
 * which the guest page checks before it calls and the API checks again (issue 13), each with the
 * guest stage that explains it. The block list and the quota answer a status instead (spec §4).
 */
export const CALL_REFUSAL_STAGES = {
  company_inactive: 'inactive',
  out_of_hours: 'schedule',
  outside_geofence: 'outofzone',
  welcome_form_required: 'welcome',
  /** The company asks for consent and this guest never gave it (decision 0030). */
  consent_required: 'consent',
} as const satisfies Record<string, GuestStage>;
export type CallRefusalCode = keyof typeof CALL_REFUSAL_STAGES;

/** `POST /call-report/add` (spec §3 "Call report fields sent", §7). */
export const callReportAddBodySchema = z.strictObject({
  call_id: callIdSchema,
  company: recordIdSchema,
  source: callSourceSchema,
  category_id: recordIdSchema.optional(),
  guest_username: guestUsernameSchema.optional(),
  /**
   * spec §3 call state `assignmentGroup`: the id of the company's assignment group the guest
   * picked. Required when the company turns `assignments` on and lists groups; refused otherwise
   * (decision 0019).
   */
  assignmentGroup: assignmentGroupSchema.shape.id.optional(),
  /**
   * Ours (spec §7 `?webview=true`): the guest's page is a native app's webview, so the call's
   * Janus room is made for H.264 whoever asks for it first (the agent's claim included).
   */
  webview: z.boolean().optional(),
  /**
   * The guest chose to call without recording (decision 0030): only where the company records
   * calls and lets the guest decline (`recordingOptional`); 400 naming `recording` elsewhere.
   */
  recording: z.literal('declined').optional(),
});
export type CallReportAddBody = z.infer<typeof callReportAddBodySchema>;

export const callReportAddedSchema = z.object({
  status: callReportStatusSchema,
  id: recordIdSchema,
  /**
   * The XMPP and Janus credentials for the call, only when it is let through (`ok`): a guest
   * reaches the chat and media servers, and their TURN credentials, only with a live call.
   */
  services: serviceCredentialsSchema.optional(),
  /**
   * How the call's media travels, as the API fixed it in the report (decision 0045): the guest
   * sets the call up from it, with no question more. Always present, whatever the status: every
   * report stores one; a refused call never uses it.
   */
  callMethod: callMethodSchema,
});

/**
 * `POST /call-report/admission` (ours, issue 18): whether a call would be let through now, asked
 * before the guest is asked for the camera, so a refusal is known first. The company's rules
 * refuse with the same 403 codes as `call-report/add` ({@link CALL_REFUSAL_STAGES}); the block
 * list and the quota answer the status `call-report/add` would. Nothing is recorded.
 */
export const callAdmissionBodySchema = z.strictObject({ company: recordIdSchema });
export type CallAdmissionBody = z.infer<typeof callAdmissionBodySchema>;
export const callAdmissionSchema = z.object({ status: callReportStatusSchema });

/**
 * `POST /call-report/hold-call` (spec §7): the call moves from `current_call_id` to
 * `new_call_id`; `origin_call_id` (spec §3 InitialCallID) keeps the chain one conversation.
 */
export const holdCallBodySchema = z.strictObject({
  origin_call_id: callIdSchema,
  current_call_id: callIdSchema,
  new_call_id: callIdSchema,
  category_id: recordIdSchema.optional(),
  guest_username: guestUsernameSchema.optional(),
});
export type HoldCallBody = z.infer<typeof holdCallBodySchema>;

/**
 * What `POST /call-report/hold-call` answers: the new leg's report and how its media travels. A
 * new leg is a new call, which decides its method again (decision 0045): the guest sets the leg
 * up from this answer.
 */
export const heldCallSchema = z.object({ id: recordIdSchema, callMethod: callMethodSchema });

const sdpSchema = z.string().max(100_000);

/** What `PUT /call-report/update` may change (spec §7 "call_id plus changed fields"). */
export const callReportChangesSchema = z.strictObject({
  /** spec §8: on ICE failure the guest sends success false with its SDP. */
  success: z.boolean().optional(),
  guest_local_sdp: sdpSchema.optional(),
  guest_remote_sdp: sdpSchema.optional(),
  category_id: recordIdSchema.optional(),
  call_type: callTypeSchema.optional(),
  /** The plain rating of the rating page (stars or emojis); a rating form goes elsewhere. */
  rating: z.number().int().min(1).max(RATING_SCALE_MAX).optional(),
});

export type CallReportChanges = z.infer<typeof callReportChangesSchema>;

export const callReportUpdateBodySchema = callReportChangesSchema
  .extend({ call_id: callIdSchema })
  .refine((body) => Object.keys(body).length > 1, 'name at least one field to change');

/**
 * `PUT /call-report/update-timestamp` (spec §7): each flag stamps the server's time. Sent with
 * `fetch(…, { keepalive: true })` or `navigator.sendBeacon`, which can set no header: such a
 * request carries its access token in the body instead.
 */
export const callReportTimestampBodySchema = z
  .strictObject({
    call_id: callIdSchema,
    call_initiated_timestamp: z.boolean().optional(),
    guest_exit_timestamp: z.boolean().optional(),
    access_token: z.string().max(4096).optional(),
  })
  .refine(
    (body) => body.call_initiated_timestamp || body.guest_exit_timestamp,
    'set call_initiated_timestamp or guest_exit_timestamp to true',
  );
export type CallReportTimestampBody = z.infer<typeof callReportTimestampBodySchema>;

const timestampSchema = z.iso.datetime().nullable();

/** A call report as the API answers it. */
export const callReportSchema = z.object({
  id: recordIdSchema,
  call_id: z.string(),
  origin_call_id: z.string(),
  previous_call_id: z.string().nullable(),
  company: recordIdSchema,
  category_id: recordIdSchema.nullable(),
  guest_username: z.string(),
  source: callSourceSchema,
  status: callReportStatusSchema,
  success: z.boolean().nullable(),
  call_type: callTypeSchema.nullable(),
  /** The assignment group the guest picked (decision 0019); kept through holds and transfers. */
  assignmentGroup: z.string().nullable(),
  rating: z.number().int().nullable(),
  created_at: z.iso.datetime(),
  call_initiated_timestamp: timestampSchema,
  guest_exit_timestamp: timestampSchema,
});
export type CallReport = z.infer<typeof callReportSchema>;

/** `POST /call-bug/by-guest` (spec §3 "Call-bug report fields", §7). */
export const callBugBodySchema = z.strictObject({
  /** spec §9: the console log buffer keeps 110 entries. */
  guest_log: z.array(z.unknown()).max(110),
  guest_state: z.record(z.string(), z.unknown()),
  guest_client_info: z.record(z.string(), z.unknown()),
  call_id: callIdSchema,
  guest_id: guestUsernameSchema.optional(),
});
