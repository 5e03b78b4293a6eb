import {
  CALL_RESUME_WINDOW_MS,
  callTicketSchema,
  parseCallId,
  type CallTicket,
} from '@frontdesk/protocol';

/*
 * What lets this tab take its conversation up again after a reload or a crash (decision 0025):
 * the live call's id, kept in the tab's own session storage (this origin, this tab; a reopened
 * tab gets it back, another tab or visitor never sees it), refreshed while the call lives and
 * good for {@link CALL_RESUME_WINDOW_MS} after (`callTicketSchema`). SECURITY: it proves nothing — the API resumes a
 * call only for the guest whose credential owns it; the ticket only says which call to ask for.
 */

/** How often the live call refreshes its ticket. */
export const TICKET_REFRESH_MS = 5000;

const ticketKey = (companyId: number) => `frontdesk.call.${companyId}`;

/** Keeps the live call's ticket (or refreshes it). Without storage, no reload resumes. */
export function keepTicket(
  storage: Storage | undefined,
  companyId: number,
  ticket: Omit<CallTicket, 'savedAt'>,
  now = Date.now(),
): void {
  try {
    storage?.setItem(ticketKey(companyId), JSON.stringify({ ...ticket, savedAt: now }));
  } catch {
    // A full or missing storage: a reload starts over, as before.
  }
}

/** The conversation is over: nothing to resume. */
export function forgetTicket(storage: Storage | undefined, companyId: number): void {
  try {
    storage?.removeItem(ticketKey(companyId));
  } catch {
    // Nothing kept.
  }
}

/**
 * The call this tab may resume: one of `username`'s (the guest this browser logged in as), kept
 * less than {@link CALL_RESUME_WINDOW_MS} ago; `undefined` otherwise (and a stale or foreign
 * ticket is dropped).
 */
export function keptTicket(
  storage: Storage | undefined,
  companyId: number,
  username: string,
  now = Date.now(),
): CallTicket | undefined {
  let ticket: CallTicket | undefined;
  try {
    const text = storage?.getItem(ticketKey(companyId));
    ticket = text ? callTicketSchema.safeParse(JSON.parse(text)).data : undefined;
  } catch {
    ticket = undefined;
  }
  const fresh =
    ticket &&
    parseCallId(ticket.callId)?.username === username &&
    now - ticket.savedAt < CALL_RESUME_WINDOW_MS &&
    ticket.savedAt <= now;
  if (!fresh) {
    forgetTicket(storage, companyId);
    return undefined;
  }
  return ticket;
}
