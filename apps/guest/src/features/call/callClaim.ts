/*
 * Which tab of this browser has a call open (decision 0025). A tab the browser duplicates gets a
 * copy of the first tab's session storage, its call ticket included: without a claim it would
 * take the call up beside the first tab. The tab whose call is open holds a Web Lock named after
 * the call (`navigator.locks`, this origin only) until the call closes or the page goes away; a
 * tab that finds it held knows the call is open elsewhere.
 */

import { claimTabLock } from '@frontdesk/protocol/browser';

/** A claim this tab holds on a call: `release` lets another tab of this browser take it. */
export type CallClaim = { callId: string; release: () => void };

/**
 * How long a page that came back with a ticket waits for the call's lock: a reload's old page
 * lets go of it as it unloads, which the lock manager may learn just after the new page asks.
 */
export const CLAIM_WAIT_MS = 2000;

const lockName = (callId: string) => `frontdesk.call.${callId}`;

/**
 * Claims call `callId` for this tab, waiting up to `waitMs` for another page to let go of it;
 * `null` when another tab of this browser still holds it. A browser without Web Locks gets a
 * claim that guards nothing (as before).
 */
export async function claimCall(callId: string, waitMs: number): Promise<CallClaim | null> {
  const lock = await claimTabLock(lockName(callId), waitMs);
  return lock && { callId, release: lock.release };
}
