import { sql, type Kysely } from 'kysely';
import { CALL_RESUME_WINDOW_MS } from '@frontdesk/protocol';
import type { GuestPrincipal, StaffPrincipal } from '../auth/access-token.ts';
import type { Database } from '../db/schema.ts';
import { ConflictError } from '../domain-errors.ts';
import { staffJabberUsername } from '../xmpp/addresses.ts';
import { assertParticipant, liveCallsSince, toCallState } from './call-coordination.ts';
import { requireCall, requireReport, type ReportWithGuest } from './call-reports.ts';

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

/**
 * `POST /api/calls/:callId/rejoin` (decision 0027): the agent who took the call takes it up
 * again after its console reloaded or its tab was reopened. SECURITY: only that very agent (403
 * `not_your_call` for another agent or admin of the company, and for staff of another company;
 * guests are refused before this, `staff_only`), only while the call is answered and live — not
 * ended, abandoned or handed on by a transfer (409 `call_over`) — and not after its guest left it
 * more than {@link CALL_RESUME_WINDOW_MS} ago (409 `call_over`: nobody is there to talk to). The
 * API keeps no stamp of the agent's leaving: whoever waited for it — the guest, for
 * `PEER_GONE_GRACE_MS` — ends the call when it does not come back, and that is what refuses a
 * rejoin too late.
 */
export async function rejoinCall(
  db: Kysely<Database>,
  principal: StaffPrincipal,
  callId: string,
  now = new Date(),
): Promise<ReportWithGuest> {
  const call = await requireCall(db, callId);
  assertParticipant(principal, call);
  const over =
    toCallState(call).status !== 'answered' ||
    call.transfer_to_staff_id !== null ||
    call.transfer_to_category_id !== null ||
    call.created_at <= liveCallsSince(now.getTime());
  if (over) throw new ConflictError('call_over', `Call ${call.call_id} is over.`);
  if (call.guest_exit_at && call.guest_exit_at.getTime() < now.getTime() - CALL_RESUME_WINDOW_MS) {
    throw new ConflictError(
      'call_over',
      `The guest left call ${call.call_id} more than ${CALL_RESUME_WINDOW_MS / 1000} s ago.`,
    );
  }
  return call;
}
