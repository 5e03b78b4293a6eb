import type { Kysely } from 'kysely';
import type { CallRefusalCode, CompanyDetails } from '@frontdesk/protocol';
import type { Database } from '../db/schema.ts';
import { ForbiddenError } from '../domain-errors.ts';
import { settledInOrder } from './settled-in-order.ts';

/**
 * How long a passed geofence check lets the guest call: a visit from the check through the
 * welcome form, preview and choice of category, with room to spare.
 */
export const LOCATION_CHECK_TTL_MS = 60 * 60 * 1000;

const refuse = (code: CallRefusalCode, message: string, fields?: Record<string, string>) =>
  new ForbiddenError(code, message, fields);

/**
 * SECURITY: the company's rules for a new call, checked by the API whatever the browser did
 * (issue 13): the guest page checks them first and shows their stage, but a script calling
 * `call-report/add` directly meets them here. An inactive company, a closed one, a guest whose
 * position has not passed the geofence within {@link LOCATION_CHECK_TTL_MS} of a company that
 * asks for it, who has not answered the company's welcome form, or who never gave the consent
 * the company asks for (decision 0030): 403 with the reason's code.
 */
export async function assertCallAdmitted(
  db: Kysely<Database>,
  company: CompanyDetails,
  guestId: number,
  now: Date,
): Promise<void> {
  if (!company.activated) {
    throw refuse('company_inactive', `Company ${company.id} takes no calls at the moment.`);
  }
  if (company.schedule && !company.schedule.openNow) {
    throw refuse('out_of_hours', `${company.name} is closed at the moment.`);
  }
  // Both asked at once (each is a round trip), then judged in this order.
  const [guest, answered] = await settledInOrder([
    company.consentRequired || company.requestLocation
      ? db
          .selectFrom('guests')
          .select(['inside_zone_at', 'consent_given_at'])
          .where('id', '=', guestId)
          .executeTakeFirstOrThrow()
      : undefined,
    company.welcomeForm
      ? db
          .selectFrom('form_submissions')
          .select('id')
          .where('guest_id', '=', guestId)
          .where('form_id', '=', company.welcomeForm.id)
          .executeTakeFirst()
      : undefined,
  ] as const);
  if (guest) {
    // SECURITY (decision 0030): a guest registered before the company asked, or by a script
    // that skipped the page, has no consent and makes no call.
    if (company.consentRequired && guest.consent_given_at === null) {
      throw refuse(
        'consent_required',
        `${company.name} asks for consent first: register again with consent (POST /guest-auth/register).`,
      );
    }
    const insideAt = guest.inside_zone_at;
    if (
      company.requestLocation &&
      (insideAt === null || now.getTime() - insideAt.getTime() > LOCATION_CHECK_TTL_MS)
    ) {
      throw refuse(
        'outside_geofence',
        `${company.name} serves only its area: check the location first (PUT /geo-fence/check).`,
      );
    }
  }
  if (company.welcomeForm && !answered) {
    throw refuse(
      'welcome_form_required',
      `Answer the welcome form of ${company.name} first (POST /form-submission).`,
      { form: 'the welcome form has no answers from this guest' },
    );
  }
}
