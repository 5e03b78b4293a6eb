import type { FastifyRequest } from 'fastify';
import {
  verifyAccessToken,
  type GuestPrincipal,
  type Principal,
  type StaffPrincipal,
} from '../auth/access-token.ts';
import { staffSessionIsLive } from '../auth/sessions.ts';
import { HttpError } from './errors.ts';

/** The OpenAPI marker for routes that need `Authorization: Bearer <access_token>`. */
export const bearerSecurity = [{ bearerAuth: [] }];

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/**
 * The caller behind the request's bearer token (or `fallbackToken`, for requests that cannot set
 * a header such as `navigator.sendBeacon`); 401 without a valid one. SECURITY: a staff token
 * also needs its session live and its member active in the same role, asked of the database on
 * every request, so sign-out, deactivation and role changes take effect at once; guests' tokens
 * (minutes long, and a guest cannot be demoted) are not looked up.
 */
export async function authenticate(
  request: FastifyRequest,
  fallbackToken?: string,
): Promise<Principal> {
  const token = bearerToken(request) ?? fallbackToken;
  if (token === undefined) {
    throw new HttpError(
      401,
      'unauthenticated',
      'Log in first: send Authorization: Bearer <access_token>.',
    );
  }
  const principal = await verifyAccessToken(request.server.config.secrets.apiToken, token);
  if (!principal) {
    throw new HttpError(
      401,
      'invalid_token',
      'The access token is invalid or has expired: log in again.',
    );
  }
  if (principal.role !== 'guest' && !(await staffSessionIsLive(request.server.db, principal))) {
    throw new HttpError(401, 'session_ended', 'This session has ended: sign in again.');
  }
  return principal;
}

/** A logged-in guest, or 403 for agents and admins. */
export async function authenticateGuest(
  request: FastifyRequest,
  fallbackToken?: string,
): Promise<GuestPrincipal> {
  const principal = await authenticate(request, fallbackToken);
  if (principal.role !== 'guest') {
    throw new HttpError(403, 'guests_only', 'Only a guest may make this call.');
  }
  return principal;
}

/** A logged-in agent or admin, or 403 for guests. */
export async function authenticateStaff(request: FastifyRequest): Promise<StaffPrincipal> {
  const principal = await authenticate(request);
  if (principal.role === 'guest') {
    throw new HttpError(403, 'staff_only', 'Only an agent or an admin may make this call.');
  }
  return principal;
}

/** A logged-in admin, or 403 for agents and guests. */
export async function authenticateAdmin(request: FastifyRequest): Promise<StaffPrincipal> {
  const principal = await authenticateStaff(request);
  if (principal.role !== 'admin') {
    throw new HttpError(403, 'admins_only', 'Only an admin may make this call.');
  }
  return principal;
}

/** SECURITY: every token belongs to one company; it may touch nothing of another. */
export function assertOwnCompany(principal: Principal, companyId: number): void {
  if (principal.companyId !== companyId) {
    throw new HttpError(403, 'other_company', `This login may not act for company ${companyId}.`);
  }
}

/** SECURITY: a guest may name only itself wherever a body names a guest. */
export function assertOwnUsername(principal: GuestPrincipal, username: string | undefined): void {
  if (username !== undefined && username !== principal.username) {
    throw new HttpError(403, 'other_guest', 'A guest may act only for itself.');
  }
}
