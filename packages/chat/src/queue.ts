import { isOpenCall, ROUND_ROBIN_PEER } from '@frontdesk/protocol';
import type { RoomSnapshot } from './types.ts';

/** A guest of the open-call set (spec §4), with its place in the room's queue. */
export interface WaitingGuest {
  nick: string;
  /** {@link ROUND_ROBIN_PEER}, the agent it waits for, or `undefined` when it named none. */
  peer: string | undefined;
  waitingSince: string | undefined;
  /** 1 for the guest that has waited longest. */
  position: number;
}

/**
 * The room's waiting guests, longest-waiting first. The order comes from the time each guest
 * announced with its presence, so every occupant computes the same queue; a guest that
 * announced none (an older client) queues behind those that did, in the order it was seen.
 */
export function waitingGuests(room: RoomSnapshot): WaitingGuest[] {
  return room.occupants
    .filter((occupant) => isOpenCall(occupant.status))
    .map((occupant, seen) => ({ occupant, seen }))
    .sort(
      (a, b) => compareTimes(a.occupant.waitingSince, b.occupant.waitingSince) || a.seen - b.seen,
    )
    .map(({ occupant }, index) => ({
      nick: occupant.nick,
      peer: occupant.status?.peer,
      waitingSince: occupant.waitingSince,
      position: index + 1,
    }));
}

function compareTimes(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  return Date.parse(a) - Date.parse(b);
}

/** A waiting guest as an agent's console lists it. */
export interface GuestInQueue extends WaitingGuest {
  /** 0 when the guest announced no time. */
  waitedMs: number;
}

/**
 * The guests of the room that `agentNick` may take: those waiting for anyone (round-robin or
 * no peer, spec §4) or for this agent, longest-waiting first, with how long each has waited.
 */
export function agentQueue(
  room: RoomSnapshot,
  agentNick: string,
  now: number = Date.now(),
): GuestInQueue[] {
  return waitingGuests(room)
    .filter((guest) => !guest.peer || guest.peer === ROUND_ROBIN_PEER || guest.peer === agentNick)
    .map((guest) => ({
      ...guest,
      waitedMs: guest.waitingSince ? Math.max(0, now - Date.parse(guest.waitingSince)) : 0,
    }));
}
