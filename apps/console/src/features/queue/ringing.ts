import type { AppStartListening } from '../../app/hooks.ts';
import type { RootState } from '../../app/store.ts';
import { selectAvailability } from '../availability/availabilitySlice.ts';

/**
 * Whether a guest still waits for this agent (issue 19 item 3): the ring that queueListeners
 * started repeats while this holds — the agent available and in no call, and a guest waiting in
 * its rooms; with round robin, only a call offered to this agent or offered to nobody yet.
 */
export function stillRinging(state: RootState, me: string | undefined): boolean {
  if (selectAvailability(state) !== 'available' || state.call.phase !== 'idle') return false;
  const waiting = Object.values(state.queue.rooms).flatMap((room) =>
    room.waiting.map((guest) => guest.nick),
  );
  if (!state.auth.company?.roundRobin) return waiting.length > 0;
  return waiting.some((nick) => {
    const offer = state.queue.calls[nick]?.offer;
    return !offer || offer.agentJabberUsername === me;
  });
}

/** Stops the ring once no guest waits for this agent any more. */
export function ringingListeners(startListening: AppStartListening): void {
  startListening({
    predicate: (_action, state, before) =>
      state.queue !== before.queue ||
      state.call.phase !== before.call.phase ||
      state.availability !== before.availability ||
      state.auth !== before.auth,
    effect: (_action, { getState, extra }) => {
      if (!stillRinging(getState(), extra.connections.chat?.username)) extra.ringer.stop?.();
    },
  });
}
