import { jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { guestUsernameSchema, recordIdSchema, staffRoleSchema } from '@frontdesk/protocol';

const ISSUER = 'frontdesk-api';
const AUDIENCE = 'frontdesk-api';

/**
 * Who an access token speaks for; a staff token also names its login (session), which sign-out
 * revokes. Exactly these claims.
 */
const principalSchema = z.discriminatedUnion('role', [
  z.object({
    role: z.literal('guest'),
    guestId: recordIdSchema,
    companyId: recordIdSchema,
    username: guestUsernameSchema,
  }),
  z.object({
    role: staffRoleSchema,
    staffId: recordIdSchema,
    companyId: recordIdSchema,
    sessionId: recordIdSchema,
  }),
]);
export type Principal = z.infer<typeof principalSchema>;
export type GuestPrincipal = Extract<Principal, { role: 'guest' }>;
export type StaffPrincipal = Exclude<Principal, GuestPrincipal>;

const key = (secret: string) => new TextEncoder().encode(secret);

/** Signs the API's own bearer token (HS256 with `API_TOKEN_SECRET`). */
export async function signAccessToken(
  secret: string,
  principal: Principal,
  expiresAt: Date,
): Promise<string> {
  return new SignJWT(principal)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(key(secret));
}

/**
 * Tokens verified already, with their principal and expiry (ms), oldest first. A guest sends the
 * same token with every call, and checking its signature (~0.3 ms) is a large share of a short request.
 * A signature that verified stays valid until the token expires; whether its session was revoked
 * is asked of the database where it matters (staff routes, plugins/auth.ts).
 */
const verified = new Map<string, { secret: string; principal: Principal; expiresAt: number }>();
const VERIFIED_KEPT = 10_000;

/** The principal of a valid, unexpired token of ours; `undefined` for anything else. */
export async function verifyAccessToken(
  secret: string,
  token: string,
): Promise<Principal | undefined> {
  const known = verified.get(token);
  if (known && known.secret === secret && known.expiresAt > Date.now()) return known.principal;
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['HS256'],
    });
    const principal = principalSchema.safeParse(payload).data;
    if (principal && payload.exp !== undefined) {
      if (verified.size >= VERIFIED_KEPT) verified.delete(verified.keys().next().value ?? '');
      verified.set(token, { secret, principal, expiresAt: payload.exp * 1000 });
    }
    return principal;
  } catch {
    return undefined;
  }
}
