import type { Kysely } from 'kysely';
import { companySettingsSchema } from '@frontdesk/protocol';
import type { Database } from '../db/schema.ts';

/**
 * SECURITY (decision 0030): whether the company may keep what this guest sends. A company that
 * asks for consent keeps nothing of a guest that never gave it: one registered before the
 * company asked can still log in, so every route that stores what a guest sends outside a call
 * asks this (calls are refused at their admission).
 */
export async function mayKeepGuestData(
  db: Kysely<Database>,
  companySettings: unknown,
  guestId: number,
): Promise<boolean> {
  if (!companySettingsSchema.parse(companySettings).consentRequired) return true;
  const guest = await db
    .selectFrom('guests')
    .select('consent_given_at')
    .where('id', '=', guestId)
    .executeTakeFirst();
  return guest?.consent_given_at != null;
}
