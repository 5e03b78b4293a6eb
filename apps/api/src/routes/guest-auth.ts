import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  envelope,
  guestDetailsQuerySchema,
  guestDetailsSchema,
  guestLoginBodySchema,
  guestLoginSchema,
  guestRegisterBodySchema,
  guestRegistrationSchema,
} from '@frontdesk/protocol';
import { issueCredentials } from '../auth/credentials.ts';
import { listCategories, requireCompany } from '../companies/company-repository.ts';
import {
  findGuest,
  isBlocked,
  recordGuestLogin,
  registerGuest,
  requireGuest,
} from '../guests/guest-repository.ts';
import { assertOwnUsername, authenticate, bearerSecurity } from '../plugins/auth.ts';
import { errorResponses, HttpError } from '../plugins/errors.ts';
import { RATE_LIMITS } from '../plugins/rate-limits.ts';
import { companyRooms, userJid } from '../xmpp/addresses.ts';

/**
 * spec §7 "Guest auth service". SECURITY: a guest proves who it is by its username alone (spec
 * §3: the username is the credential); its random suffix is what makes it unguessable, so the
 * API never shows one guest's username to another.
 */
export const guestAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;

  app.post(
    '/guest-auth/register',
    {
      config: { rateLimit: RATE_LIMITS.guestAuth },
      schema: {
        tags: ['guest auth'],
        summary: 'Register a guest with a company (idempotent: 201 every time)',
        body: guestRegisterBodySchema,
        response: { 201: envelope(guestRegistrationSchema), ...errorResponses(400, 404, 429) },
      },
    },
    async (request, reply) => {
      const { username, companyId } = request.body;
      const company = await requireCompany(db, companyId);
      const [guest, categories] = await Promise.all([
        registerGuest(db, company.id, username),
        listCategories(db, company.id),
      ]);
      return reply.code(201).send({
        data: {
          jabberusername: guest.jabberusername,
          username: guest.username,
          guestRooms: companyRooms(company, categories, config.xmpp.domain),
        },
      });
    },
  );

  app.post(
    '/guest-auth/login',
    {
      config: { rateLimit: RATE_LIMITS.guestAuth },
      schema: {
        tags: ['guest auth'],
        summary: 'Log a registered guest in: the access token and the XMPP and Janus tokens',
        body: guestLoginBodySchema,
        response: { 200: envelope(guestLoginSchema), ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      const { username, companyId } = request.body;
      const guest = await findGuest(db, companyId, username);
      if (!guest) {
        throw new HttpError(
          401,
          'not_registered',
          'This guest is not registered with the company: register first.',
        );
      }
      const now = new Date();
      await recordGuestLogin(db, guest.id, now);
      const credentials = await issueCredentials(
        config,
        { role: 'guest', guestId: guest.id, companyId, username },
        userJid(guest.jabberusername, config.xmpp.domain),
        now,
      );
      return {
        data: { ...credentials, username, jabberusername: guest.jabberusername, companyId },
      };
    },
  );

  app.get(
    '/guest-auth/guestDetails',
    {
      schema: {
        tags: ['guest auth'],
        summary: "A guest's own details, or any guest of the company for its agents and admins",
        security: bearerSecurity,
        querystring: guestDetailsQuerySchema,
        response: { 200: envelope(guestDetailsSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
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
  );
};
