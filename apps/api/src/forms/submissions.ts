import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type {
  FormSubmissionBody,
  ratingSubmissionBodySchema,
  ServiceType,
} from '@frontdesk/protocol';
import type { GuestPrincipal } from '../auth/access-token.ts';
import { assertMayTouch } from '../calls/call-reports.ts';
import { findForm, requireCompany } from '../companies/company-repository.ts';
import { verifyIdentity, vouchedFields } from '../companies/embed-identity.ts';
import type { Database, FormKind, FormRow } from '../db/schema.ts';
import {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
} from '../domain-errors.ts';
import { mayKeepGuestData } from '../guests/guest-consent.ts';
import { findGuest } from '../guests/guest-repository.ts';
import { checkAnswers } from './answers.ts';

type RatingSubmissionBody = z.infer<typeof ratingSubmissionBodySchema>;

/**
 * The company's form of `kind` when its id is `formId`, else a refusal naming the field `form`:
 * a guest answers the form the company shows now, never an older or another company's one.
 */
async function requireForm(
  db: Kysely<Database>,
  companyId: number,
  kind: FormKind,
  formId: number,
): Promise<FormRow> {
  const form = await findForm(db, companyId, kind);
  if (form?.id !== formId) {
    throw new InvalidInputError(
      'unknown_form',
      `Form ${formId} is not the ${kind} form of company ${companyId}.`,
      {
        form: `must be the company's ${kind} form`,
      },
    );
  }
  return form;
}

/**
 * `POST /form-submission` (spec §5): keeps the guest's welcome-form answers once they fit the
 * company's form; a call is admitted only after them (see call-admission.ts). With `identity`
 * (the embedding site's signed prefill, decision 0021) the answers it vouches for are kept as
 * verified; a token that does not verify refuses the whole submission. Answers the new
 * submission's id.
 */
export async function submitWelcomeForm(
  db: Kysely<Database>,
  principal: GuestPrincipal,
  body: FormSubmissionBody,
): Promise<number> {
  const company = await requireCompany(db, body.company);
  if (!(await mayKeepGuestData(db, company.settings, principal.guestId))) {
    throw new ForbiddenError(
      'consent_required',
      `${company.name} asks for consent first: register again with consent (POST /guest-auth/register).`,
    );
  }
  const form = await requireForm(db, body.company, 'welcome', body.form);
  const answers = checkAnswers(form.fields, body.answers);
  let verified: string[] = [];
  if (body.identity !== undefined) {
    const signed = verifyIdentity(company.embed_secret, body.company, body.identity, new Date());
    verified = vouchedFields(signed, answers);
  }
  const { id } = await db
    .insertInto('form_submissions')
    .values({
      company_id: body.company,
      guest_id: principal.guestId,
      form_id: form.id,
      service_type: body.serviceType,
      answers: JSON.stringify(answers),
      verified_fields: verified,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * The guest's latest welcome-form answers for the service type, so a returning guest need not
 * answer again (spec §5); `undefined` when the guest or its answers are unknown.
 */
export async function findLatestWelcomeSubmission(
  db: Kysely<Database>,
  companyId: number,
  guestUsername: string,
  serviceType: ServiceType,
) {
  const guest = await findGuest(db, companyId, guestUsername);
  if (!guest) return undefined;
  return db
    .selectFrom('form_submissions')
    .selectAll()
    .where('guest_id', '=', guest.id)
    .where('service_type', '=', serviceType)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/**
 * `POST /rating-form/submissions` (spec §7): the guest's rating of one of its own calls, against
 * its company's rating form. A call is rated once; rating it again is refused. Answers the new
 * rating's id.
 */
export async function submitRating(
  db: Kysely<Database>,
  principal: GuestPrincipal,
  body: RatingSubmissionBody,
): Promise<number> {
  const report = await db
    .selectFrom('call_reports')
    .selectAll()
    .where('id', '=', body.report)
    .executeTakeFirst();
  if (!report)
    throw new NotFoundError('call_report_not_found', `There is no call report ${body.report}.`);
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
    throw new ConflictError('already_rated', `Call report ${report.id} is already rated.`);
  return rating.id;
}

/**
 * The welcome answers the guest gave last at or before `before` (a call's start: a transfer
 * keeps them), with the fields of the form they answered and which of them were verified.
 */
export function latestWelcomeBefore(
  db: Kysely<Database>,
  companyId: number,
  guestId: number,
  before: Date,
) {
  return db
    .selectFrom('form_submissions as s')
    .innerJoin('forms as f', 'f.id', 's.form_id')
    .select(['s.answers', 's.verified_fields', 'f.fields'])
    .where('s.guest_id', '=', guestId)
    .where('s.company_id', '=', companyId)
    .where('f.kind', '=', 'welcome')
    .where('s.created_at', '<=', before)
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
