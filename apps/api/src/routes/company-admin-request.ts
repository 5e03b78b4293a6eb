import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StaffPrincipal } from '../auth/access-token.ts';
import {
  companyEtag,
  staffActor,
  versionFromIfMatch,
  type CompanyChangeOptions,
} from '../audit/company-changes.ts';
import { assertOwnCompany, authenticateAdmin } from '../plugins/auth.ts';

/**
 * SECURITY: the admin behind a request about company `companyId`, checked before anything is read:
 * 401 without a live staff login, 403 for guests, agents and other companies' admins.
 */
export async function companyAdmin(
  request: FastifyRequest,
  companyId: number,
): Promise<StaffPrincipal> {
  const principal = await authenticateAdmin(request);
  assertOwnCompany(principal, companyId);
  return principal;
}

/** What `changeCompany` needs for an admin's edit: the company, the admin, the `If-Match`. */
export async function companyAdminChange(
  request: FastifyRequest,
  companyId: number,
): Promise<CompanyChangeOptions> {
  const principal = await companyAdmin(request, companyId);
  return {
    companyId,
    actor: await staffActor(request.server.db, principal.staffId),
    expectedVersion: versionFromIfMatch(request.headers['if-match']),
  };
}

/** Sends the company's version as the ETag the next edit names in `If-Match`. */
export const withCompanyEtag = (reply: FastifyReply, version: number): FastifyReply =>
  reply.header('etag', companyEtag(version));
