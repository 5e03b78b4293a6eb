import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { callBugBodySchema } from '@frontdesk/protocol';
import type { GuestPrincipal } from '../auth/access-token.ts';
import type { Database } from '../db/schema.ts';

/** What the guest knew when its call's media set-up failed (spec §3 "Call-bug report fields"). */
export type CallBug = Omit<z.infer<typeof callBugBodySchema>, 'guest_id'>;

/**
 * Keeps the guest's bug report of a call, linked to the call's report when there is one: the
 * report may be missing (spec §8: report failures are only logged), so the link is optional.
 * Answers the new bug's id.
 */
export async function recordCallBug(
  db: Kysely<Database>,
  principal: GuestPrincipal,
  bug: CallBug,
): Promise<number> {
  const report = await db
    .selectFrom('call_reports')
    .select('id')
    .where('call_id', '=', bug.call_id)
    .where('guest_id', '=', principal.guestId)
    .executeTakeFirst();
  const { id } = await db
    .insertInto('call_bugs')
    .values({
      company_id: principal.companyId,
      guest_id: principal.guestId,
      call_id: bug.call_id,
      call_report_id: report?.id ?? null,
      guest_log: JSON.stringify(bug.guest_log),
      guest_state: JSON.stringify(bug.guest_state),
      guest_client_info: JSON.stringify(bug.guest_client_info),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}
