import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type FormSubmissionLookup, routes } from '@frontdesk/protocol';
import {
  findLatestWelcomeSubmission,
  submitRating,
  submitWelcomeForm,
} from '../forms/submissions.ts';
import {
  assertOwnCompany,
  assertOwnUsername,
  authenticate,
  authenticateGuest,
  bearerSecurity,
} from '../plugins/auth.ts';
import { accountKey, limitBy, RATE_LIMITS } from '../plugins/rate-limits.ts';
import { fromTable } from './from-table.ts';

/** spec §7 "forms": the welcome form before the call and the rating form after it. */
export const formRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const formLimits = {
    config: { rateLimit: RATE_LIMITS.guestActions },
    preHandler: limitBy(app, 'formsPerGuest', accountKey),
  };

  app.route({
    ...fromTable(routes.submitWelcomeForm, [400, 401, 403, 429], {
      tags: ['forms'],
      summary: "Submit the guest's answers to the company's welcome form",
      security: bearerSecurity,
    }),
    ...formLimits,
    handler: async (request, reply) => {
      const principal = await authenticateGuest(request);
      const body = request.body;
      // spec §5: sent only with company id and guest username, which must be the guest's own.
      assertOwnCompany(principal, body.company);
      assertOwnUsername(principal, body.guestUsername);
      const id = await submitWelcomeForm(db, principal, body);
      return reply.code(201).send({ data: { id } });
    },
  });

  app.route({
    ...fromTable(routes.latestWelcomeSubmission, [400, 401, 403], {
      tags: ['forms'],
      summary: "The guest's latest welcome-form answers for a service type, or {} when none",
      security: bearerSecurity,
    }),
    handler: async (request) => {
      const principal = await authenticate(request);
      const { companyId, guestUsername, serviceType } = request.body;
      assertOwnCompany(principal, companyId);
      if (principal.role === 'guest') assertOwnUsername(principal, guestUsername);
      const latest = await findLatestWelcomeSubmission(db, companyId, guestUsername, serviceType);
      // spec §5: an empty object means the form is still required.
      const data: FormSubmissionLookup = latest
        ? {
            id: latest.id,
            form: latest.form_id,
            serviceType: latest.service_type,
            answers: latest.answers,
            createdAt: latest.created_at.toISOString(),
          }
        : {};
      return { data };
    },
  });

  app.route({
    ...fromTable(routes.submitRating, [400, 401, 403, 404, 409, 429], {
      tags: ['forms'],
      summary: "Submit the guest's answers to the company's rating form for one call",
      security: bearerSecurity,
    }),
    ...formLimits,
    handler: async (request, reply) => {
      const principal = await authenticateGuest(request);
      assertOwnUsername(principal, request.body.guestUsername);
      const id = await submitRating(db, principal, request.body);
      return reply.code(201).send({ data: { id } });
    },
  });
};
