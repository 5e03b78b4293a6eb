import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Selectable } from 'kysely';
import { routes, type StaffLogin } from '@frontdesk/protocol';
import {
  issueAccessToken,
  issueJanusToken,
  issueStaffXmppCredentials,
} from '../auth/credentials.ts';
import { openStaffSession, refreshStaffSession, revokeSession } from '../auth/sessions.ts';
import { authenticateStaff, bearerSecurity } from '../plugins/auth.ts';
import { hashPassword } from '../auth/password.ts';
import { SignInGuard } from '../auth/sign-in-guard.ts';
import { requireCompany } from '../companies/company-repository.ts';
import type { StaffTable } from '../db/schema.ts';
import { HttpError } from '../plugins/errors.ts';
import { RATE_LIMITS } from '../plugins/rate-limits.ts';
import { changeOwnPassword } from '../staff/staff-accounts.ts';
import { findStaffByEmail } from '../staff/staff-repository.ts';
import { companyRoom, staffJabberUsername, userJid } from '../xmpp/addresses.ts';
import { fromTable } from './from-table.ts';

// SECURITY: one answer for an unknown e-mail, a wrong password and a deactivated member.
const invalidCredentials = () =>
  new HttpError(401, 'invalid_credentials', 'The e-mail or the password is wrong.');

/** Agents' and admins' login (docs/architecture.md: the console). */
export const staffAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;
  // Sign-in and password change share one guard: neither is a way around the other's limits.
  const guard = await SignInGuard.create();

  /**
   * The member behind an e-mail and password, active, with a password that still works; 401
   * otherwise. A lapsed one-time password is told apart only after it was found right.
   */
  async function checkCredentials(
    request: Parameters<typeof guard.check>[0],
    reply: Parameters<typeof guard.check>[1],
    body: { email: string; password: string },
  ): Promise<Selectable<StaffTable>> {
    const email = body.email.toLowerCase();
    const member = await findStaffByEmail(db, email);
    const valid = await guard.check(request, reply, email, body.password, member?.password_hash);
    if (!member || !valid || !member.active) throw invalidCredentials();
    const oneTimeUntil = member.one_time_password_expires_at;
    if (oneTimeUntil !== null && oneTimeUntil.getTime() <= Date.now()) {
      throw new HttpError(
        401,
        'one_time_password_expired',
        'This one-time password has expired: ask an admin of your company for a new one.',
      );
    }
    return member;
  }

  /** Opens a session for `member` and answers everything the console needs to work. */
  async function signIn(member: Selectable<StaffTable>): Promise<StaffLogin> {
    const signedInAt = new Date();
    const { sessionId, refreshToken } = await openStaffSession(db, member.id, signedInAt);
    app.callChats.teamChanged(member.company_id);
    const principal = {
      role: member.role,
      staffId: member.id,
      companyId: member.company_id,
      sessionId,
    };
    const jid = userJid(staffJabberUsername(member.id), config.xmpp.domain);
    const [accessToken, xmpp, company] = await Promise.all([
      issueAccessToken(config, principal, signedInAt),
      issueStaffXmppCredentials(config, jid, signedInAt),
      requireCompany(db, member.company_id),
    ]);
    return {
      ...accessToken,
      refreshToken,
      xmpp,
      ...issueJanusToken(config, signedInAt),
      user: {
        id: member.id,
        email: member.email,
        name: member.name,
        role: member.role,
        companyId: member.company_id,
      },
      rooms: [companyRoom(company, config.xmpp.domain)],
    };
  }

  app.route({
    ...fromTable(routes.staffLogin, [400, 401, 429], {
      tags: ['staff auth'],
      summary: 'Log an agent or admin in by e-mail and password',
      description:
        'With a one-time password (an invite or a reset) it opens no session: it answers `mustChangePassword: true`, and POST /auth/password signs the member in.',
    }),
    handler: async (request, reply) => {
      const member = await checkCredentials(request, reply, request.body);
      if (member.one_time_password_expires_at !== null) {
        return {
          data: {
            mustChangePassword: true as const,
            expiresAt: member.one_time_password_expires_at.toISOString(),
          },
        };
      }
      return { data: { ...(await signIn(member)), mustChangePassword: false as const } };
    },
  });

  app.route({
    ...fromTable(routes.changePassword, [400, 401, 429], {
      tags: ['staff auth'],
      summary:
        'Choose your password (after a one-time password, or any time): ends your other sign-ins and signs you in',
    }),
    handler: async (request, reply) => {
      const { email, currentPassword, newPassword } = request.body;
      const member = await checkCredentials(request, reply, { email, password: currentPassword });
      const newHash = await hashPassword(newPassword);
      // SECURITY: only if the password is still the one just checked, so a one-time password
      // is exchanged once even by two requests at the same time.
      if (!(await changeOwnPassword(db, member.id, member.password_hash, newHash))) {
        throw invalidCredentials();
      }
      await app.staffChats.endIfSignedOut(member.id);
      return { data: { ...(await signIn(member)), mustChangePassword: false as const } };
    },
  });

  app.route({
    ...fromTable(routes.refresh, [400, 401, 429], {
      tags: ['staff auth'],
      summary: 'Exchange a refresh token for a new access token and the next refresh token',
    }),
    config: { rateLimit: RATE_LIMITS.refresh },
    handler: async (request) => {
      const session = await refreshStaffSession(db, request.body.refreshToken);
      if (!session) {
        throw new HttpError(401, 'session_ended', 'This session has ended: sign in again.');
      }
      const { refreshToken, ...principal } = session;
      const now = new Date();
      const jid = userJid(staffJabberUsername(principal.staffId), config.xmpp.domain);
      const [accessToken, xmpp] = await Promise.all([
        issueAccessToken(config, principal, now),
        issueStaffXmppCredentials(config, jid, now),
      ]);
      return { data: { ...accessToken, refreshToken, xmpp } };
    },
  });

  app.route({
    ...fromTable(routes.logout, [401, 403], {
      tags: ['staff auth'],
      summary: "Sign out: the session's access and refresh tokens stop working",
      security: bearerSecurity,
    }),
    handler: async (request, reply) => {
      const principal = await authenticateStaff(request);
      await revokeSession(db, principal.sessionId);
      app.callChats.teamChanged(principal.companyId);
      await app.staffChats.endIfSignedOut(principal.staffId);
      return reply.code(204).send(null);
    },
  });
};
