import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { companySettingsSchema, routes } from '@frontdesk/protocol';
import { issueAccessToken } from '../auth/credentials.ts';
import { requireCompany } from '../companies/company-repository.ts';
import { mayKeepGuestData } from '../guests/guest-consent.ts';
import {
  findGuestByCredential,
  isBlocked,
  recordGuestLogin,
  registerGuest,
  requireGuest,
} from '../guests/guest-repository.ts';
import { assertOwnUsername, authenticate, bearerSecurity } from '../plugins/auth.ts';
import { HttpError } from '../plugins/errors.ts';
import { limitBy, RATE_LIMITS } from '../plugins/rate-limits.ts';
import { fromTable } from './from-table.ts';

/**
 * spec §7 "Guest auth service". SECURITY (decision 0006): a guest proves who it is with the
 * credential its registration answered, which nobody else ever sees; its username is public.
 */
export const guestAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;

  app.route({
    ...fromTable(routes.registerGuest, [400, 404, 429], {
      tags: ['guest auth'],
      summary: 'Register a new guest with a company: its public username and secret credential',
    }),
    config: { rateLimit: RATE_LIMITS.guestAuth },
    // The body is valid by then: its company id keys the company's count.
    preHandler: limitBy(app, 'registerPerCompany', (request) =>
      String((request.body as { companyId: number }).companyId),
    ),
    handler: async (request, reply) => {
      const { username, companyId, consent } = request.body;
      const company = await requireCompany(db, companyId);
      // SECURITY (decision 0030): no guest row, fingerprint or chat account without consent.
      if (companySettingsSchema.parse(company.settings).consentRequired && consent !== true) {
        throw new HttpError(
          400,
          'consent_required',
          `Company ${companyId} asks for the guest's consent first.`,
          { consent: 'must be true: the company asks for consent before anything is stored' },
        );
      }
      const { guest, credential } = await registerGuest(
        db,
        company.id,
        username,
        config.secrets.guestFingerprint,
        consent ? new Date() : null,
      );
      return reply.code(201).send({
        data: {
          jabberusername: guest.jabberusername,
          username: guest.username,
          credential,
          guestRooms: [],
        },
      });
    },
  });

  app.route({
    ...fromTable(routes.guestLogin, [400, 401, 429], {
      tags: ['guest auth'],
      summary:
        "Exchange a guest's credential for an access token (XMPP and Janus come with a call)",
    }),
    config: { rateLimit: RATE_LIMITS.guestAuth },
    handler: async (request) => {
      const { credential, companyId } = request.body;
      const guest = await findGuestByCredential(db, companyId, credential);
      if (!guest) {
        throw new HttpError(
          401,
          'not_registered',
          "This credential is not one of the company's guests: register first.",
        );
      }
      const company = await requireCompany(db, companyId);
      const now = new Date();
      // SECURITY (decisions 0030, 0031): a guest registered before the company asked for consent
      // logs in so that the page learns it has none and asks (an acceptance registers a new
      // guest); nothing is written about it, not even this login's time, which would restart its
      // retention clock.
      const [accessToken] = await Promise.all([
        issueAccessToken(
          config,
          { role: 'guest', guestId: guest.id, companyId, username: guest.username },
          now,
        ),
        mayKeepGuestData(db, company.settings, guest.id).then(async (mayKeep) => {
          if (mayKeep) await recordGuestLogin(db, guest.id, now);
        }),
      ]);
      return {
        data: {
          ...accessToken,
          username: guest.username,
          jabberusername: guest.jabberusername,
          companyId,
          consentGivenAt: guest.consent_given_at?.toISOString() ?? null,
        },
      };
    },
  });

  app.route({
    ...fromTable(routes.guestDetails, [400, 401, 403, 404], {
      tags: ['guest auth'],
      summary: "A guest's own details, or any guest of the company for its agents and admins",
      security: bearerSecurity,
    }),
    handler: async (request) => {
      const principal = await authenticate(request);
      if (principal.role === 'guest') assertOwnUsername(principal, request.query.username);
      const guest = await requireGuest(db, principal.companyId, request.query.username);
      return {
        data: {
          username: guest.username,
          jabberusername: guest.jabberusername,
          companyId: guest.company_id,
          blocked: await isBlocked(db, guest),
          registeredAt: guest.created_at.toISOString(),
          lastLoginAt: guest.last_login_at?.toISOString() ?? null,
        },
      };
    },
  });
};
