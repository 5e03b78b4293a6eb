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
 * The agents a call rotates among, the first of these that has anyone in it:
 * 1. the available members of the call's assignment group who serve its category (decision 0019);
 * 2. the available members of the group;
 * 3. the available agents who serve the category (docs/admin-api.md, "Categories");
 * 4. every available agent,
 * so no call waits unoffered while someone could take it. A category that names nobody counts as
 * served by everyone; `groupMembers` is `undefined` for a call without a group (or one whose
 * group no longer counts), which skips the first two.
 */
export function offerableAgents(
  available: readonly number[],
  serving: readonly number[] | undefined,
  groupMembers?: readonly number[],
): readonly number[] {
  const own = serving?.filter((id) => available.includes(id)) ?? [];
  const category = own.length > 0 ? own : available;
  if (groupMembers === undefined) return category;
  const inGroup = (ids: readonly number[]) => ids.filter((id) => groupMembers.includes(id));
  return [inGroup(category), inGroup(available)].find((ids) => ids.length > 0) ?? category;
}
