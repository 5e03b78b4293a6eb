import { z } from 'zod';
import { jabberUsernameSchema } from './chat.ts';
import { accessTokenSchema, guestRoomSchema, serviceCredentialsSchema } from './guest.ts';
import { recordIdSchema } from './ids.ts';

/** Agents take calls; admins also manage their company (docs/architecture.md: console). */
export const staffRoleSchema = z.enum(['agent', 'admin']);
export type StaffRole = z.infer<typeof staffRoleSchema>;

/** `POST /auth/login`. */
export const staffLoginBodySchema = z.strictObject({
  email: z.email().max(320),
  password: z.string().min(1).max(200),
});

export const staffMemberSchema = z.object({
  id: recordIdSchema,
  email: z.string(),
  name: z.string(),
  role: staffRoleSchema,
  companyId: recordIdSchema,
  /**
   * The categories whose calls round robin offers the member and the assignment groups they
   * belong to (decision 0019): the console's queue shows their guests first. Absent: unknown.
   */
  categoryIds: z.array(recordIdSchema).optional(),
  assignmentGroupIds: z.array(z.string()).optional(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

/**
 * A refresh token: exchanged at `POST /auth/refresh` for a new access token and a new refresh
 * token (the old one then stops working), until the login's session ends or is revoked. It
 * travels only in an httpOnly cookie (`REFRESH_COOKIE`, decision 0024): never in a body the page's
 * scripts could read.
 */
export const refreshTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, 'must be the refresh token from login (43 characters)');

/**
 * The cookie that carries the refresh token: httpOnly, SameSite=Strict, Secure over HTTPS, sent
 * only to `REFRESH_COOKIE.path` (decision 0024).
 */
export const REFRESH_COOKIE = { name: 'frontdesk_refresh', path: '/api/auth/refresh' } as const;

/**
 * `POST /auth/refresh`: an empty JSON object. The token is the cookie; requiring a JSON body
 * keeps a plain cross-site form from posting here (it cannot send `application/json`).
 */
export const refreshBodySchema = z.strictObject({});

/**
 * A signed-in member of staff and everything the console needs to work: the access token, the
 * chat's and the media server's tokens, the member and the company's rooms. A member of staff's
 * XMPP token lasts little longer than its access token, so a sign-in that has ended stops
 * reaching the chat server soon after, whoever copied the token. The refresh token is not here:
 * it is set as a cookie.
 */
export const staffLoginSchema = serviceCredentialsSchema.extend({
  ...accessTokenSchema.shape,
  user: staffMemberSchema,
  /** The company's room and its category rooms, with their password (docs/protocol.md). */
  rooms: z.array(guestRoomSchema),
});
export type StaffLogin = z.infer<typeof staffLoginSchema>;

/**
 * `POST /auth/refresh`: the same as a sign-in, so a reloaded page or a new tab resumes from the
 * cookie alone, and a renewal brings fresh chat and media tokens with the access token.
 */
export const refreshedSchema = staffLoginSchema;
export type Refreshed = StaffLogin;

/** `POST /auth/login` with a password of the member's own, and `POST /auth/password`: signed in. */
export const staffSignedInSchema = staffLoginSchema.extend({
  mustChangePassword: z.literal(false),
});

/**
 * `POST /auth/login` with a one-time password (an invite or a reset, decision 0017): no session
 * and no token of any kind; the console asks for a new password and sends it with the one-time
 * one to `POST /auth/password`, which signs the member in.
 */
export const passwordChangeRequiredSchema = z.object({
  mustChangePassword: z.literal(true),
  /** Until when the one-time password can still be exchanged. */
  expiresAt: z.iso.datetime(),
});
export type PasswordChangeRequired = z.infer<typeof passwordChangeRequiredSchema>;

/** `POST /auth/login`: signed in, or told to choose a password first. */
export const staffLoginAnswerSchema = z.discriminatedUnion('mustChangePassword', [
  staffSignedInSchema,
  passwordChangeRequiredSchema,
]);
export type StaffLoginAnswer = z.infer<typeof staffLoginAnswerSchema>;

/** `GET /api/staff`: the caller's colleagues (and itself), as the console names them. */
export const colleagueSchema = z.object({
  id: recordIdSchema,
  name: z.string(),
  /** The XMPP nick in the company's rooms (`staff-<id>`). */
  jabberUsername: jabberUsernameSchema,
  role: staffRoleSchema,
});
export type Colleague = z.infer<typeof colleagueSchema>;

/**
 * What an agent says of itself (issue 7); busy while in a call. In the rooms it travels as XMPP
 * `show` (docs/protocol.md); the API learns it from `PUT /api/staff/me/availability`.
 */
export const agentAvailabilitySchema = z.enum(['available', 'away', 'busy']);
export type AgentAvailability = z.infer<typeof agentAvailabilitySchema>;

/** `PUT /api/staff/me/availability`. */
export const availabilityBodySchema = z.strictObject({ status: agentAvailabilitySchema });

/**
 * What the console's tabs of one browser tell each other on their BroadcastChannel (issue 19
 * item 5, decision 0027): a new tab `ask`s, and every tab says the availability the agent
 * `chose` — when asked and whenever the agent changes it. Each names its member of staff; a tab
 * believes only its own member's.
 */
export const availabilityTabMessageSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('ask'), staffId: z.number().int().positive() }),
  z.strictObject({
    kind: z.literal('chosen'),
    staffId: z.number().int().positive(),
    availability: agentAvailabilitySchema,
  }),
]);
export type AvailabilityTabMessage = z.infer<typeof availabilityTabMessageSchema>;

/**
 * How often the console repeats its availability to the API. The API counts an agent available
 * only for a few such periods after its last report, so a closed tab stops receiving offers.
 */
export const AVAILABILITY_REPORT_INTERVAL_MS = 60_000;
