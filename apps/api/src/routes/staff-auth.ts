import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope, staffLoginBodySchema, staffLoginSchema } from '@frontdesk/protocol';
import { issueCredentials } from '../auth/credentials.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { listCategories, requireCompany } from '../companies/company-repository.ts';
import { errorResponses, HttpError } from '../plugins/errors.ts';
import { RATE_LIMITS } from '../plugins/rate-limits.ts';
import { companyRooms, staffJabberUsername, userJid } from '../xmpp/addresses.ts';

/** Agents' and admins' login (ARCHITECTURE: the console). */
export const staffAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;
  // SECURITY: an unknown e-mail is checked against this hash, so it takes as long as a wrong password.
  const unknownUserHash = await hashPassword('no account has this password');

  app.post(
    '/auth/login',
    {
      config: { rateLimit: RATE_LIMITS.staffLogin },
      schema: {
        tags: ['staff auth'],
        summary: 'Log an agent or admin in by e-mail and password',
        body: staffLoginBodySchema,
        response: { 200: envelope(staffLoginSchema), ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      const email = request.body.email.toLowerCase();
      const member = await db
        .selectFrom('staff')
        .selectAll()
        .where('email', '=', email)
        .executeTakeFirst();
      const valid = await verifyPassword(
        request.body.password,
        member?.password_hash ?? unknownUserHash,
      );
      if (!member || !valid) {
        // SECURITY: one answer for an unknown e-mail and a wrong password.
        throw new HttpError(401, 'invalid_credentials', 'The e-mail or the password is wrong.');
      }
      const [credentials, company, categories] = await Promise.all([
        issueCredentials(
          config,
          { role: member.role, staffId: member.id, companyId: member.company_id },
          userJid(staffJabberUsername(member.id), config.xmpp.domain),
          new Date(),
        ),
        requireCompany(db, member.company_id),
        listCategories(db, member.company_id),
      ]);
      return {
        data: {
          ...credentials,
          user: {
            id: member.id,
            email: member.email,
            name: member.name,
            role: member.role,
            companyId: member.company_id,
          },
          rooms: companyRooms(company, categories, config.xmpp.domain),
        },
      };
    },
  );
};
