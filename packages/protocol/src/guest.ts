import { z } from 'zod';
import { recordIdSchema } from './ids.ts';

/**
 * spec §1: the browser computes a name from its fingerprint, a separator and a generated
 * suffix. Both parts are letters and digits only. SECURITY (decision 0006): this browser name
 * goes only to `guest-auth/register`, where the API keeps its fingerprint for block lists; it
 * is never shown to anyone and proves nothing.
 */
export const GUEST_USERNAME_SEPARATOR = '_';

const FINGERPRINT = '[A-Za-z0-9]{8,64}';
const SUFFIX = '[A-Za-z0-9]{8,64}';
const BROWSER_USERNAME = new RegExp(`^(${FINGERPRINT})${GUEST_USERNAME_SEPARATOR}(${SUFFIX})$`);

export const browserUsernameSchema = z
  .string()
  .regex(
    BROWSER_USERNAME,
    'must be a fingerprint, "_" and a suffix (letters and digits, 8–64 each)',
  );

/** Builds the browser's name from its two parts (spec §1). */
export function formatBrowserUsername(fingerprint: string, suffix: string): string {
  return browserUsernameSchema.parse(`${fingerprint}${GUEST_USERNAME_SEPARATOR}${suffix}`);
}

/** The fingerprint part of a browser name, lower-cased: what a company's block list matches. */
export function fingerprintOf(browserUsername: string): string {
  const match = BROWSER_USERNAME.exec(browserUsername);
  if (!match?.[1]) throw new Error(`Not a browser username: ${browserUsername}`);
  return match[1].toLowerCase();
}

/**
 * A guest's public username: `g` and 25 random base32 letters, made by the API at registration.
 * It names the guest wherever others can see it (call ids `<username>--<suffix>`, XMPP
 * nicks, reports) and so proves nothing: the {@link guestCredentialSchema} does (decision 0006).
 * Lower-case, so it can be a JID localpart as it is.
 */
export const guestUsernameSchema = z
  .string()
  .regex(/^g[a-z2-7]{25}$/, 'must be a guest username from registration ("g" and 25 letters)');

/**
 * The secret a registration hands to that browser alone (256 random bits, base64url); login
 * exchanges it for tokens. SECURITY: never part of anything another party sees.
 */
export const guestCredentialSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, 'must be the credential from registration (43 characters)');

/** `POST /guest-auth/register`: the guest introduces itself to one company (spec §7). */
export const guestRegisterBodySchema = z.strictObject({
  /** spec §1's browser name: its fingerprint is kept for the company's block list. */
  username: browserUsernameSchema,
  companyId: recordIdSchema,
  /**
   * The guest accepted the company's consent text (decision 0030): required when the company's
   * `consentRequired` is on (400 naming `consent` otherwise); the guest row keeps its time.
   */
  consent: z
    .literal(true, { error: 'must be true: the guest accepted the consent text' })
    .optional(),
});

/**
 * A shared chat room of the company: its agents' own room, which agents and admins get at login
 * (members only). Guests share no room with anyone: each call has its own (decision 0010), so the
 * registration's `guestRooms` (spec §3) is always empty.
 */
export const guestRoomSchema = z.object({
  jid: z.string(),
  kind: z.literal('company'),
  categoryId: z.null(),
  /**
   * The join password, already lowercase (spec §5: send it lowercased). SECURITY: only the
   * company's staff get it, never `GET /company/:id`.
   */
  password: z.string(),
});
export type GuestRoom = z.infer<typeof guestRoomSchema>;

/**
 * spec §3: the registration answer. SECURITY (decision 0006): spec §3 calls `username` the
 * credential; here `username` is the public name and `credential` the secret, which the browser
 * keeps (spec §3 guest auth state `credential`) and sends only to `guest-auth/login`.
 */
export const guestRegistrationSchema = z.object({
  jabberusername: z.string(),
  username: guestUsernameSchema,
  credential: guestCredentialSchema,
  /** spec §3; always empty (decision 0010): the room of each call comes with the call. */
  guestRooms: z.array(guestRoomSchema).max(0),
});
export type GuestRegistration = z.infer<typeof guestRegistrationSchema>;

/** `POST /guest-auth/login` (spec §7 "credentials body"): the credential from registration. */
export const guestLoginBodySchema = z.strictObject({
  credential: guestCredentialSchema,
  companyId: recordIdSchema,
});

/**
 * What XMPP and Janus accept: staff get them at login, a guest with each call the API lets
 * through (`call-report/add`), so TURN credentials (which come over XMPP) reach no guest without a
 * live call.
 */
export const serviceCredentialsSchema = z.object({
  xmpp: z.object({
    jid: z.string(),
    /** A JWT the XMPP server takes as the password (SASL PLAIN). */
    password: z.string(),
  }),
  /** Janus signed token: `new Janus({ token })`. */
  janusToken: z.string(),
  /**
   * When these stop working (ISO 8601): they outlast the longest call, since Janus cannot swap
   * the token of a live session.
   */
  expiresAt: z.iso.datetime(),
});
export type ServiceCredentials = z.infer<typeof serviceCredentialsSchema>;

/** The API's own bearer token and when it expires: minutes, not hours (refreshed before). */
export const accessTokenSchema = z.object({
  /** spec §3: sent as `Authorization: Bearer` to every other call. */
  access_token: z.string(),
  accessTokenExpiresAt: z.iso.datetime(),
});

/** How long before an access token expires the apps renew it (clocks and tabs drift). */
export const ACCESS_TOKEN_RENEW_MARGIN_MS = 60_000;
/** How long the apps wait before trying a failed renewal again (the API unreachable). */
export const ACCESS_TOKEN_RETRY_MS = 10_000;

/** When to renew a token that expires at `expiresAt` (ISO 8601), in ms from `now`. */
export function msUntilRenewal(expiresAt: string, now = Date.now()): number {
  return Math.max(0, Date.parse(expiresAt) - now - ACCESS_TOKEN_RENEW_MARGIN_MS);
}

export const guestLoginSchema = accessTokenSchema.extend({
  username: guestUsernameSchema,
  jabberusername: z.string(),
  companyId: recordIdSchema,
  /** When the guest accepted the company's consent text (ISO 8601); `null`: never asked. */
  consentGivenAt: z.iso.datetime().nullable(),
});
export type GuestLogin = z.infer<typeof guestLoginSchema>;

/** `GET /guest-auth/guestDetails?username=` (spec §7). */
export const guestDetailsQuerySchema = z.strictObject({ username: guestUsernameSchema });

export const guestDetailsSchema = z.object({
  username: guestUsernameSchema,
  jabberusername: z.string(),
  companyId: recordIdSchema,
  /** Whether the company's block list holds this guest's fingerprint (kept by the API only). */
  blocked: z.boolean(),
  registeredAt: z.iso.datetime(),
  lastLoginAt: z.iso.datetime().nullable(),
});
export type GuestDetails = z.infer<typeof guestDetailsSchema>;
