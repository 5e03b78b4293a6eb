import { sql, type Kysely } from 'kysely';
import { CALL_RESUME_WINDOW_MS } from '@frontdesk/protocol';
import type { GuestPrincipal } from '../auth/access-token.ts';
import type { Database } from '../db/schema.ts';
import { ConflictError } from '../domain-errors.ts';
import { staffJabberUsername } from '../xmpp/addresses.ts';
import { liveCallsSince, toCallState } from './call-coordination.ts';
import { requireReport, type ReportWithGuest } from './call-reports.ts';

/** What a resumed call is, besides the credentials the route adds. */
export type ResumedCall = {
  call: ReportWithGuest;
  status: 'waiting' | 'answered';
  callType: 'voice' | 'video' | null;
  waitingFor: string | null;
};

/**
 * `POST /api/calls/:callId/resume` (decision 0025): the call's own guest takes the conversation
 * up again after its page went away — a reload, a reopened tab, a network switch. SECURITY: the
 * call must be this guest's (403 otherwise: the credential only its browser holds decides, not
 * the call id, which others may have seen), live (409 `call_over`), and left no longer than
 * {@link CALL_RESUME_WINDOW_MS} ago (409 `resume_expired`): by its exit stamp (the page's
 * `pagehide` beacon) or, while it waited, by its last question for its place. The exit stamp is
 * cleared: the guest did not leave after all. A waiting call keeps its place, which it never
 * lost (the queue orders by report id); an answered call keeps its agent.
 */
export async function resumeCall(
  db: Kysely<Database>,
  principal: GuestPrincipal,
  callId: string,
  now = new Date(),
): Promise<ResumedCall> {
  const call = await requireReport(db, principal, callId);
  const { status } = toCallState(call);
  if (
    (status !== 'waiting' && status !== 'answered') ||
    call.created_at <= liveCallsSince(now.getTime())
  ) {
    throw new ConflictError('call_over', `Call ${call.call_id} is over; start a new one.`);
  }
  const since = now.getTime() - CALL_RESUME_WINDOW_MS;
  const lastSign =
    call.guest_exit_at ?? (status === 'waiting' ? (call.guest_seen_at ?? call.created_at) : null);
  if (lastSign && lastSign.getTime() < since) {
    throw new ConflictError(
      'resume_expired',
      `Call ${call.call_id} was left more than ${CALL_RESUME_WINDOW_MS / 1000} s ago.`,
    );
  }
  const [chain] = await Promise.all([
    db
      .selectFrom('call_reports as origin')
      .leftJoin('call_reports as previous', (join) =>
        join.on('previous.call_id', '=', call.previous_call_id ?? ''),
      )
      .select(['origin.call_type', 'previous.transfer_to_staff_id'])
      .where('origin.call_id', '=', call.origin_call_id)
      .executeTakeFirst(),
    db
      .updateTable('call_reports')
      .set({
        guest_exit_at: null,
        ...(status === 'waiting' ? { guest_seen_at: sql<Date>`now()` } : {}),
      })
      .where('id', '=', call.id)
      .execute(),
  ]);
  const waitingFor = chain?.transfer_to_staff_id ?? null;
  return {
    call,
    status,
    callType: call.call_type ?? chain?.call_type ?? null,
    waitingFor:
      status === 'waiting' && waitingFor !== null ? staffJabberUsername(waitingFor) : null,
  };
}
