import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routes } from '@frontdesk/protocol';
import {
  issueAccessToken,
  issueJanusToken,
  issueStaffXmppCredentials,
} from '../auth/credentials.ts';
import { openStaffSession, refreshStaffSession, revokeSession } from '../auth/sessions.ts';
import { authenticateStaff, bearerSecurity } from '../plugins/auth.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { requireCompany } from '../companies/company-repository.ts';
import { HttpError } from '../plugins/errors.ts';
import { FAILED_SIGN_IN_LIMITS, RATE_LIMITS, tooMany } from '../plugins/rate-limits.ts';
import { FailedSignIns } from '../auth/failed-sign-ins.ts';
import { findStaffByEmail } from '../staff/staff-repository.ts';
import { companyRoom, staffJabberUsername, userJid } from '../xmpp/addresses.ts';
import { fromTable } from './from-table.ts';

/** Agents' and admins' login (docs/architecture.md: the console). */
export const staffAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;
  // SECURITY: an unknown e-mail is checked against this hash, so it takes as long as a wrong password.
  const unknownUserHash = await hashPassword('no account has this password');
  const failedByAddress = new FailedSignIns(
    FAILED_SIGN_IN_LIMITS.perAddress.max,
    FAILED_SIGN_IN_LIMITS.perAddress.windowMs,
  );
  const failedByEmail = new FailedSignIns(
    FAILED_SIGN_IN_LIMITS.perEmail.max,
    FAILED_SIGN_IN_LIMITS.perEmail.windowMs,
  );

  app.route({
    ...fromTable(routes.staffLogin, [400, 401, 429], {
      tags: ['staff auth'],
      summary: 'Log an agent or admin in by e-mail and password',
    }),
    handler: async (request, reply) => {
      const email = request.body.email.toLowerCase();
      // SECURITY: an address, or one account from many addresses, that failed too often waits,
      // whether the account exists or not (so the limit tells nothing of it either).
      const now = Date.now();
      const waitSeconds = Math.max(
        failedByAddress.retryAfterSeconds(request.ip, now),
        failedByEmail.retryAfterSeconds(email, now),
      );
      if (waitSeconds > 0) {
        void reply.header('retry-after', String(waitSeconds));
        throw tooMany(`${waitSeconds} seconds`);
      }
      // Counted as failed until the password is found right, so guesses sent all at once count too.
      failedByAddress.record(request.ip, now);
      failedByEmail.record(email, now);
      const member = await findStaffByEmail(db, email);
      const valid = await verifyPassword(
        request.body.password,
        member?.password_hash ?? unknownUserHash,
      );
      if (!member || !valid || !member.active) {
        // SECURITY: one answer for an unknown e-mail and a wrong password.
        throw new HttpError(401, 'invalid_credentials', 'The e-mail or the password is wrong.');
      }
      failedByAddress.forgive(request.ip, now);
      failedByEmail.forgive(email, now);
      const signedInAt = new Date(now);
      const { sessionId, refreshToken } = await openStaffSession(db, member.id, signedInAt);
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
        data: {
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
        },
      };
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
      await app.staffChats.endIfSignedOut(principal.staffId);
      return reply.code(204).send(null);
    },
  });
};
