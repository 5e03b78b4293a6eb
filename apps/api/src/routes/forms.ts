import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createdSchema,
  envelope,
  formSubmissionBodySchema,
  formSubmissionLookupSchema,
  formSubmissionQuerySchema,
  ratingSubmissionBodySchema,
  type FormSubmissionLookup,
} from '@frontdesk/protocol';
import type { Kysely } from 'kysely';
import { assertMayTouch } from '../calls/call-reports.ts';
import { findForm } from '../companies/company-repository.ts';
import type { Database, FormKind, FormRow } from '../db/schema.ts';
import { checkAnswers } from '../forms/answers.ts';
import { findGuest } from '../guests/guest-repository.ts';
import {
  assertOwnCompany,
  assertOwnUsername,
  authenticate,
  authenticateGuest,
  bearerSecurity,
} from '../plugins/auth.ts';
import { errorResponses, HttpError } from '../plugins/errors.ts';
import { accountKey, limitBy, RATE_LIMITS } from '../plugins/rate-limits.ts';

/** The company's form of `kind` when its id is `formId`, else 400 naming the field `form`. */
async function requireForm(
  db: Kysely<Database>,
  companyId: number,
  kind: FormKind,
  formId: number,
): Promise<FormRow> {
  const form = await findForm(db, companyId, kind);
  if (form?.id !== formId) {
    throw new HttpError(
      400,
      'unknown_form',
      `Form ${formId} is not the ${kind} form of company ${companyId}.`,
      {
        form: `must be the company's ${kind} form`,
      },
    );
  }
  return form;
}

/** spec §7 "forms": the welcome form before the call and the rating form after it. */
export const formRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const formLimits = {
    config: { rateLimit: RATE_LIMITS.guestActions },
    preHandler: limitBy(app, 'formsPerGuest', accountKey),
  };

  app.post(
    '/form-submission',
    {
      ...formLimits,
      schema: {
        tags: ['forms'],
        summary: "Submit the guest's answers to the company's welcome form",
        security: bearerSecurity,
        body: formSubmissionBodySchema,
        response: { 201: envelope(createdSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const principal = await authenticateGuest(request);
      const body = request.body;
      // spec §5: sent only with company id and guest username, which must be the guest's own.
      assertOwnCompany(principal, body.company);
      assertOwnUsername(principal, body.guestUsername);
      const form = await requireForm(db, body.company, 'welcome', body.form);
      const answers = checkAnswers(form.fields, body.answers);
      const submission = await db
        .insertInto('form_submissions')
        .values({
          company_id: body.company,
          guest_id: principal.guestId,
          form_id: form.id,
          service_type: body.serviceType,
          answers: JSON.stringify(answers),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return reply.code(201).send({ data: { id: submission.id } });
    },
  );

  app.post(
    '/form-submission/get-submission',
    {
      schema: {
        tags: ['forms'],
        summary: "The guest's latest welcome-form answers for a service type, or {} when none",
        security: bearerSecurity,
        body: formSubmissionQuerySchema,
        response: { 200: envelope(formSubmissionLookupSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const principal = await authenticate(request);
      const { companyId, guestUsername, serviceType } = request.body;
      assertOwnCompany(principal, companyId);
      if (principal.role === 'guest') assertOwnUsername(principal, guestUsername);
      const guest = await findGuest(db, companyId, guestUsername);
      const latest = guest
        ? await db
            .selectFrom('form_submissions')
            .selectAll()
            .where('guest_id', '=', guest.id)
            .where('service_type', '=', serviceType)
            .orderBy('created_at', 'desc')
            .orderBy('id', 'desc')
            .executeTakeFirst()
        : undefined;
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
  );

  app.post(
    '/rating-form/submissions',
    {
      ...formLimits,
      schema: {
        tags: ['forms'],
        summary: "Submit the guest's answers to the company's rating form for one call",
        security: bearerSecurity,
        body: ratingSubmissionBodySchema,
        response: {
          201: envelope(createdSchema),
          ...errorResponses(400, 401, 403, 404, 409, 429),
        },
      },
    },
    async (request, reply) => {
      const principal = await authenticateGuest(request);
      const body = request.body;
      assertOwnUsername(principal, body.guestUsername);
      const report = await db
        .selectFrom('call_reports')
        .selectAll()
        .where('id', '=', body.report)
        .executeTakeFirst();
      if (!report)
        throw new HttpError(
          404,
          'call_report_not_found',
          `There is no call report ${body.report}.`,
        );
      assertMayTouch(principal, report);
      const form = await requireForm(db, report.company_id, 'rating', body.form);
      const answers = checkAnswers(form.fields, body.answers);
      const rating = await db
        .insertInto('rating_submissions')
        .values({
          call_report_id: report.id,
          form_id: form.id,
          guest_id: principal.guestId,
          answers: JSON.stringify(answers),
        })
        .onConflict((oc) => oc.column('call_report_id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!rating)
        throw new HttpError(409, 'already_rated', `Call report ${report.id} is already rated.`);
      return reply.code(201).send({ data: { id: rating.id } });
    },
  );
};
