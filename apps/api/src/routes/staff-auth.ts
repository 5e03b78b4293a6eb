import fastifyCookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Selectable } from 'kysely';
import {
  adminRoutes,
  companySettingsSchema,
  REFRESH_COOKIE,
  refreshTokenSchema,
  routes,
  type StaffLogin,
  type StaffRole,
} from '@frontdesk/protocol';
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
import { servedBy } from '../staff/assignment-groups.ts';
import { changeOwnPassword } from '../staff/staff-accounts.ts';
import { findStaffByEmail } from '../staff/staff-repository.ts';
import { companyRoom, staffJabberUsername, userJid } from '../xmpp/addresses.ts';
import { fromTable } from './from-table.ts';

// SECURITY: one answer for an unknown e-mail, a wrong password and a deactivated member.
const invalidCredentials = () =>
  new HttpError(401, 'invalid_credentials', 'The e-mail or the password is wrong.');

const sessionEnded = () =>
  new HttpError(401, 'session_ended', 'This session has ended: sign in again.');

/**
 * SECURITY (decision 0024): the refresh token lives in a cookie the page's scripts cannot read
 * (HttpOnly), that no other site's page or frame can make the browser send (SameSite=Strict), that
 * goes to the refresh route alone (Path), and over HTTPS only whenever the request came by HTTPS
 * (`request.protocol`: Caddy's `X-Forwarded-Proto`, trusted through `TRUST_PROXY`).
 */
function setRefreshCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  refreshToken: string,
  expiresAt: Date,
) {
  void reply.setCookie(REFRESH_COOKIE.name, refreshToken, {
    path: REFRESH_COOKIE.path,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    expires: expiresAt,
  });
}

function clearRefreshCookie(request: FastifyRequest, reply: FastifyReply) {
  void reply.clearCookie(REFRESH_COOKIE.name, {
    path: REFRESH_COOKIE.path,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
  });
}

/** The refresh token of the request's cookie, if it has one of the right form. */
function refreshTokenOf(request: FastifyRequest): string | undefined {
  const parsed = refreshTokenSchema.safeParse(request.cookies[REFRESH_COOKIE.name]);
  return parsed.success ? parsed.data : undefined;
}

/** Agents' and admins' login (docs/architecture.md: the console). */
export const staffAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;
  // Parses cookies for these routes (the refresh cookie's Path reaches no other anyway).
  await app.register(fastifyCookie);
  // Sign-in and password change share one guard: neither is a way around the other's limits.
  const guard = SignInGuard.create(app.db, 'staff');

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

  /** Everything the console needs to work, for a session that is open. */
  async function workspaceOf(
    member: { staffId: number; role: StaffRole; companyId: number; sessionId: number },
    now: Date,
  ): Promise<StaffLogin> {
    const jid = userJid(staffJabberUsername(member.staffId), config.xmpp.domain);
    const [accessToken, xmpp, company, row] = await Promise.all([
      issueAccessToken(config, member, now),
      issueStaffXmppCredentials(config, jid, now),
      requireCompany(db, member.companyId),
      db
        .selectFrom('staff')
        .select(['email', 'name'])
        .where('id', '=', member.staffId)
        .executeTakeFirstOrThrow(),
    ]);
    const served = await servedBy(
      db,
      companySettingsSchema.parse(company.settings),
      member.staffId,
    );
    return {
      ...accessToken,
      xmpp,
      ...issueJanusToken(config, now),
      user: {
        id: member.staffId,
        email: row.email,
        name: row.name,
        role: member.role,
        companyId: member.companyId,
        ...served,
      },
      rooms: [companyRoom(company, config.xmpp.domain)],
    };
  }

  /**
   * Opens a session for `member`, sets its refresh cookie and answers everything the console
   * needs to work.
   */
  async function signIn(
    request: FastifyRequest,
    reply: FastifyReply,
    member: Selectable<StaffTable>,
  ): Promise<StaffLogin> {
    const signedInAt = new Date();
    const { sessionId, refreshToken, expiresAt } = await openStaffSession(
      db,
      member.id,
      signedInAt,
    );
    app.callChats.teamChanged(member.company_id);
    setRefreshCookie(request, reply, refreshToken, expiresAt);
    const principal = {
      role: member.role,
      staffId: member.id,
      companyId: member.company_id,
      sessionId,
    };
    return workspaceOf(principal, signedInAt);
  }

  app.route({
    ...fromTable(routes.staffLogin, [400, 401, 429], {
      tags: ['staff auth'],
      summary: 'Log an agent or admin in by e-mail and password',
      description:
        'With a one-time password (an invite or a reset) it opens no session: it answers `mustChangePassword: true`, and POST /auth/password signs the member in.',
    }),
    config: { rateLimit: RATE_LIMITS.signIn },
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
      return {
        data: { ...(await signIn(request, reply, member)), mustChangePassword: false as const },
      };
    },
  });

  app.route({
    ...fromTable(adminRoutes.changePassword, [400, 401, 429], {
      tags: ['staff auth'],
      summary:
        'Choose your password (after a one-time password, or any time): ends your other sign-ins and signs you in',
    }),
    config: { rateLimit: RATE_LIMITS.signIn },
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
      return {
        data: { ...(await signIn(request, reply, member)), mustChangePassword: false as const },
      };
    },
  });

  app.route({
    ...fromTable(routes.refresh, [400, 401, 403, 429], {
      tags: ['staff auth'],
      summary:
        'Resume a sign-in from its refresh cookie: a new access token, the chat and media tokens, the member and its rooms, and the next refresh cookie',
      description: `The refresh token is the \`${REFRESH_COOKIE.name}\` cookie set at sign-in (HttpOnly, SameSite=Strict, Path=${REFRESH_COOKIE.path}); each works once. 401 \`session_ended\` without it, with a spent one, or once the session ended.`,
    }),
    config: { rateLimit: RATE_LIMITS.refresh },
    handler: async (request, reply) => {
      // SECURITY: SameSite=Strict already keeps the cookie off another site's requests, and this
      // route answers no CORS preflight, so no other origin reads its answer; a browser that sent
      // the cookie anyway still names the page's origin, refused here before the token is spent.
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== `${request.protocol}://${request.host}`) {
        throw new HttpError(403, 'cross_origin', `${origin} cannot resume a console's sign-in.`);
      }
      const presented = refreshTokenOf(request);
      const session = presented && (await refreshStaffSession(db, presented));
      if (!session) {
        clearRefreshCookie(request, reply);
        throw sessionEnded();
      }
      const { refreshToken, expiresAt, ...principal } = session;
      setRefreshCookie(request, reply, refreshToken, expiresAt);
      return { data: await workspaceOf(principal, new Date()) };
    },
  });

  app.route({
    ...fromTable(routes.logout, [401, 403], {
      tags: ['staff auth'],
      summary:
        "Sign out: the session's access and refresh tokens stop working, and the refresh cookie is cleared",
      security: bearerSecurity,
    }),
    handler: async (request, reply) => {
      // The cookie goes whatever happens next: a signed-out page keeps nothing to resume from.
      clearRefreshCookie(request, reply);
      const principal = await authenticateStaff(request);
      await revokeSession(db, principal.sessionId);
      app.callChats.teamChanged(principal.companyId);
      await app.staffChats.endIfSignedOut(principal.staffId);
      return reply.code(204).send(null);
    },
  });
};
