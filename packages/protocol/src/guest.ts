import { z } from 'zod';
import { recordIdSchema } from './ids.ts';

/**
 * spec §1: the guest's username is the browser fingerprint, a separator and a generated suffix.
 * Both parts are letters and digits only, so the separator can never be part of either and the
 * call id separator `--` (spec §3) can never appear inside a username.
 */
export const GUEST_USERNAME_SEPARATOR = '_';

const FINGERPRINT = '[A-Za-z0-9]{8,64}';
/** SECURITY: the suffix is the random part that keeps a username unguessable (see guest-auth). */
const SUFFIX = '[A-Za-z0-9]{8,64}';
const GUEST_USERNAME = new RegExp(`^(${FINGERPRINT})${GUEST_USERNAME_SEPARATOR}(${SUFFIX})$`);

export const guestUsernameSchema = z
  .string()
  .regex(GUEST_USERNAME, 'must be a fingerprint, "_" and a suffix (letters and digits, 8–64 each)');

/** Builds a username from its two parts (spec §1). */
export function formatGuestUsername(fingerprint: string, suffix: string): string {
  return guestUsernameSchema.parse(`${fingerprint}${GUEST_USERNAME_SEPARATOR}${suffix}`);
}

/** The fingerprint part of a valid username: what a company's block list matches. */
export function fingerprintOf(username: string): string {
  const match = GUEST_USERNAME.exec(username);
  if (!match?.[1]) throw new Error(`Not a guest username: ${username}`);
  return match[1].toLowerCase();
}

/** `POST /guest-auth/register`: the guest introduces itself to one company (spec §7). */
export const guestRegisterBodySchema = z.strictObject({
  username: guestUsernameSchema,
  companyId: recordIdSchema,
});

/**
 * A chat room of the company: its own room or one per category. Guests get them at registration,
 * agents and admins at login.
 */
export const guestRoomSchema = z.object({
  jid: z.string(),
  kind: z.enum(['company', 'category']),
  categoryId: recordIdSchema.nullable(),
  /**
   * The join password, shared by all rooms of the company and already lowercase (spec §5: send
   * it lowercased). SECURITY: only the company's own guests and staff get it, never
   * `GET /company/:id`.
   */
  password: z.string(),
});
export type GuestRoom = z.infer<typeof guestRoomSchema>;

/** spec §3: the registration answer; `username` is what the guest keeps as its credential. */
export const guestRegistrationSchema = z.object({
  jabberusername: z.string(),
  username: guestUsernameSchema,
  guestRooms: z.array(guestRoomSchema),
});
export type GuestRegistration = z.infer<typeof guestRegistrationSchema>;

/** `POST /guest-auth/login` (spec §7 "credentials body"): the registered username. */
export const guestLoginBodySchema = guestRegisterBodySchema;

/** What XMPP and Janus accept from this login (both minted by the API; see docs). */
export const serviceCredentialsSchema = z.object({
  xmpp: z.object({
    jid: z.string(),
    /** A JWT the XMPP server takes as the password (SASL PLAIN). */
    password: z.string(),
  }),
  /** Janus signed token: `new Janus({ token })`. */
  janusToken: z.string(),
  /** When these and the access token stop working (ISO 8601). */
  expiresAt: z.iso.datetime(),
});

export const guestLoginSchema = serviceCredentialsSchema.extend({
  /** spec §3: sent as `Authorization: Bearer` to every other guest call. */
  access_token: z.string(),
  username: guestUsernameSchema,
  jabberusername: z.string(),
  companyId: recordIdSchema,
});
export type GuestLogin = z.infer<typeof guestLoginSchema>;

/** `GET /guest-auth/guestDetails?username=` (spec §7). */
export const guestDetailsQuerySchema = z.strictObject({ username: guestUsernameSchema });

export const guestDetailsSchema = z.object({
  username: guestUsernameSchema,
  jabberusername: z.string(),
  companyId: recordIdSchema,
  /** Whether the company's block list holds this guest's fingerprint. */
  blocked: z.boolean(),
  registeredAt: z.iso.datetime(),
  lastLoginAt: z.iso.datetime().nullable(),
});
export type GuestDetails = z.infer<typeof guestDetailsSchema>;
