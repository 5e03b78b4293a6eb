/** One turn of a waiting call's rotation: the agent it is offered to, until when. */
export interface Offer {
  staffId: number;
  until: Date;
}

/**
 * Round robin (docs/protocol.md step 3), computed rather than stored: a call waits in turns of
 * `offerMs` from its creation, each turn offered to the next of the `available` agents (in id
 * order). The first turn starts at `callId mod n`, so consecutive calls begin with different
 * agents. No state to keep means no timer to run, and every request of the same moment answers
 * the same; a change in who is available moves the offer to the agents who still are.
 */
export function offerOf(
  call: { id: number; createdAt: Date },
  available: readonly number[],
  offerMs: number,
  now: number,
): Offer | null {
  const turn = Math.floor(Math.max(0, now - call.createdAt.getTime()) / offerMs);
  const staffId = available[(call.id + turn) % available.length];
  if (staffId === undefined) return null;
  return { staffId, until: new Date(call.createdAt.getTime() + (turn + 1) * offerMs) };
}

/**
 * The agents a call of a category rotates among (docs/admin-api.md, "Categories"): the available
 * ones among those who serve the category; every available agent when the category names none,
 * or when none of its own is available, so no call waits unoffered while someone could take it.
 */
export function offerableAgents(
  available: readonly number[],
  serving: readonly number[] | undefined,
): readonly number[] {
  const own = serving?.filter((id) => available.includes(id)) ?? [];
  return own.length > 0 ? own : available;
}
