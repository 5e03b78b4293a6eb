import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminRoutes } from '@frontdesk/protocol';
import {
  companyEtag,
  staffActor,
  versionFromIfMatch,
  type CompanyChangeOptions,
} from '../audit/company-changes.ts';
import {
  authenticateOperator,
  openOperatorSession,
  revokeOperatorSession,
} from '../auth/operator-sessions.ts';
import { SignInGuard } from '../auth/sign-in-guard.ts';
import { createCompanyWithAdmin, EmailTakenError } from '../companies/company-creation.ts';
import { ConflictError } from '../domain-errors.ts';
import { assertOwnCompany, authenticateAdmin, bearerSecurity } from '../plugins/auth.ts';
import { HttpError } from '../plugins/errors.ts';
import { oneTimePasswordExpiry } from '../staff/one-time-passwords.ts';
import { findOperatorByEmail, listCompaniesForOperator } from '../staff/operators.ts';
import {
  inviteStaff,
  listCompanyStaff,
  resetStaffPassword,
  updateStaff,
} from '../staff/staff-accounts.ts';
import { provisionChatRooms } from '../xmpp/room-provisioning.ts';
import { fromTable } from './from-table.ts';
import { limitAdminWrites, RATE_LIMITS } from '../plugins/rate-limits.ts';

/** A new member's or company's chat is ready in seconds, or at the next start. */
const CHAT_PROVISION_RETRIES_MS = [1000, 4000];

/**
 * Company admin (issue 16): the company's own admins manage its staff (docs/admin-api.md,
 * "Staff"); the platform operator creates companies (decision 0017). Every write goes through
 * changeCompany: audited, and refused (412) against a stale `If-Match`.
 */
export const staffAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  limitAdminWrites(app);
  const { db, config } = app;
  const operatorSignIns = SignInGuard.create(db, 'operator');

  /**
   * The company's room and its members' nicks, after a member or company was added: in the
   * background, since the answer does not wait for the chat server (a failure is logged, and
   * every start provisions all rooms again).
   */
  const provisionCompanyChat = (companyId: number) => {
    const admin = { adminApiUrl: config.xmpp.adminUrl, domain: config.xmpp.domain };
    provisionChatRooms(db, admin, app.log, CHAT_PROVISION_RETRIES_MS, companyId).catch(
      (error: unknown) => app.log.warn({ err: error, companyId }, 'company chat not provisioned'),
    );
  };

  /** SECURITY: the company's own admins only; the change carries the request's `If-Match`. */
  async function adminChange(
    request: FastifyRequest,
    companyId: number,
  ): Promise<CompanyChangeOptions> {
    const principal = await authenticateAdmin(request);
    assertOwnCompany(principal, companyId);
    return {
      companyId,
      actor: await staffActor(db, principal.staffId),
      expectedVersion: versionFromIfMatch(request.headers['if-match']),
    };
  }

  const withEtag = (reply: FastifyReply, version: number) =>
    reply.header('etag', companyEtag(version));

  const docs = (summary: string) => ({
    tags: ['company admin'],
    summary,
    security: bearerSecurity,
  });

  app.route({
    ...fromTable(
      adminRoutes.companyStaff,
      [400, 401, 403],
      docs("The company's staff, deactivated members too"),
    ),
    handler: async (request) => {
      const principal = await authenticateAdmin(request);
      assertOwnCompany(principal, request.params.id);
      return { data: await listCompanyStaff(db, request.params.id) };
    },
  });

  app.route({
    ...fromTable(
      adminRoutes.inviteStaff,
      [400, 401, 403, 409, 412],
      docs('Invite a member: answers their one-time password, shown this once'),
    ),
    handler: async (request, reply) => {
      const change = await adminChange(request, request.params.id);
      const { result, version } = await inviteStaff(db, change, request.body);
      provisionCompanyChat(change.companyId);
      return withEtag(reply, version).code(201).send({ data: result });
    },
  });

  app.route({
    ...fromTable(
      adminRoutes.updateStaff,
      [400, 401, 403, 404, 409, 412],
      docs(
        "Change a member's name, role, categories or assignment groups, or deactivate (signed out within a minute) or reactivate them",
      ),
    ),
    handler: async (request, reply) => {
      const change = await adminChange(request, request.params.id);
      const { result, version } = await updateStaff(
        db,
        change,
        request.params.staffId,
        request.body,
      );
      // The sweep would end the chat within 30 s; ending it now leaves no such window.
      if (result.deactivated) await app.staffChats.endIfSignedOut(request.params.staffId);
      if (result.reactivated) provisionCompanyChat(change.companyId);
      return withEtag(reply, version).send({ data: result.member });
    },
  });

  app.route({
    ...fromTable(
      adminRoutes.resetStaffPassword,
      [400, 401, 403, 404, 412],
      docs("Replace a member's password with a one-time password and end their sign-ins"),
    ),
    handler: async (request, reply) => {
      const change = await adminChange(request, request.params.id);
      const { result, version } = await resetStaffPassword(db, change, request.params.staffId);
      await app.staffChats.endIfSignedOut(request.params.staffId);
      return withEtag(reply, version).send({ data: result });
    },
  });

  // The platform operator (decision 0017).

  app.route({
    ...fromTable(adminRoutes.operatorLogin, [400, 401, 429], {
      tags: ['operator'],
      summary: 'Sign a platform operator in (operators are made by npm run create-operator)',
    }),
    config: { rateLimit: RATE_LIMITS.signIn },
    handler: async (request, reply) => {
      const email = request.body.email.toLowerCase();
      const operator = await findOperatorByEmail(db, email);
      const valid = await operatorSignIns.check(
        request,
        reply,
        email,
        request.body.password,
        operator?.password_hash,
      );
      if (!operator || !valid || !operator.active) {
        throw new HttpError(401, 'invalid_credentials', 'The e-mail or the password is wrong.');
      }
      const { token, expiresAt } = await openOperatorSession(db, operator.id, new Date());
      return {
        data: {
          token,
          expiresAt: expiresAt.toISOString(),
          operator: { id: operator.id, email: operator.email, name: operator.name },
        },
      };
    },
  });

  const operatorDocs = (summary: string) => ({
    tags: ['operator'],
    summary,
    security: bearerSecurity,
  });

  app.route({
    ...fromTable(
      adminRoutes.operatorLogout,
      [401],
      operatorDocs('Sign the operator out: the token stops'),
    ),
    handler: async (request, reply) => {
      const operator = await authenticateOperator(request);
      await revokeOperatorSession(db, operator.sessionId);
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...fromTable(
      adminRoutes.operatorCompanies,
      [401],
      operatorDocs('Every company of the installation'),
    ),
    handler: async (request) => {
      await authenticateOperator(request);
      return { data: await listCompaniesForOperator(db) };
    },
  });

  app.route({
    ...fromTable(
      adminRoutes.createCompany,
      [400, 401, 409],
      operatorDocs("Create a company and its first admin: answers the admin's one-time password"),
    ),
    handler: async (request, reply) => {
      const operator = await authenticateOperator(request);
      const expiresAt = oneTimePasswordExpiry(new Date());
      const created = await createCompanyWithAdmin(db, request.body, {
        actor: { staffId: null, label: `operator ${operator.email}` },
        oneTimePasswordExpiresAt: expiresAt,
      }).catch((error: unknown) => {
        if (!(error instanceof EmailTakenError)) throw error;
        // The operator runs the installation: which company has the e-mail may be said.
        throw new ConflictError('email_taken', error.message, {
          adminEmail: 'already signs someone in (e-mails are unique across the installation)',
        });
      });
      provisionCompanyChat(created.companyId);
      return reply.code(201).send({
        data: {
          companyId: created.companyId,
          name: created.name,
          adminId: created.adminId,
          adminEmail: created.adminEmail,
          oneTimePassword: created.password,
          expiresAt: expiresAt.toISOString(),
        },
      });
    },
  });
};
