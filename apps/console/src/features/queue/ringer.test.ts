import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from '../../app/store.ts';
import { Connections } from '../../app/connections.ts';
import { adaLogin, signedIn, unreachable } from '../../test/render.tsx';
import { availabilityChosen } from '../availability/availabilitySlice.ts';
import { roomChanged, roomsAssigned } from './queueSlice.ts';
import {
  RING_REPEAT_MS,
  readRingPreferences,
  repeatingRinger,
  writeRingPreferences,
} from './ringer.ts';
import { stillRinging } from './ringing.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

const notice = { title: 'Frontdesk console', body: 'A guest is waiting' };

describe('a ring that repeats', () => {
  it('sounds at once and again until stopped, with the agent’s sound and volume', () => {
    const sounds: string[] = [];
    const notices: unknown[] = [];
    writeRingPreferences({ sound: 'bell', volume: 0.3 });
    const ringer = repeatingRinger({
      sound: ({ sound, volume }) => sounds.push(`${sound}@${volume}`),
      notify: (shown) => notices.push(shown),
    });
    ringer.ring(notice);
    expect(sounds).toEqual(['bell@0.3']);
    vi.advanceTimersByTime(RING_REPEAT_MS * 2);
    expect(sounds).toHaveLength(3);
    // A second guest while it rings: a notice, not a second ring on top.
    ringer.ring(notice);
    expect(notices).toHaveLength(2);
    vi.advanceTimersByTime(RING_REPEAT_MS);
    expect(sounds).toHaveLength(4);
    ringer.stop?.();
    expect(ringer.ringing).toBe(false);
    vi.advanceTimersByTime(RING_REPEAT_MS * 5);
    expect(sounds).toHaveLength(4);
    // It can ring again afterwards.
    ringer.ring(notice);
    expect(sounds).toHaveLength(5);
    ringer.stop?.();
  });

  it('keeps the choice in this browser, and falls back to the chime on a bad one', () => {
    expect(readRingPreferences()).toEqual({ sound: 'chime', volume: 0.6 });
    writeRingPreferences({ sound: 'pulse', volume: 1 });
    expect(readRingPreferences()).toEqual({ sound: 'pulse', volume: 1 });
    localStorage.setItem('frontdesk.console.ring', '{"sound":"siren","volume":7}');
    expect(readRingPreferences()).toEqual({ sound: 'chime', volume: 0.6 });
  });
});

describe('ringing stops when nobody waits for the agent', () => {
  const JID = 'clock@conference.frontdesk.localhost';
  const guest = { nick: 'g12-visitor-abc', peer: null, waitingSince: 0, position: 1 };

  function desk() {
    const stop = vi.fn();
    const store = createStore(
      {
        api: unreachable,
        downloadFile: unreachable,
        loadChat: unreachable,
        loadMedia: unreachable,
        connections: new Connections(),
        ringer: { ring: () => undefined, stop },
      },
      signedIn(),
    );
    store.dispatch(roomsAssigned(adaLogin.rooms));
    stop.mockClear(); // stopping while nothing rings does nothing
    return { store, stop };
  }

  const snapshot = { jid: JID, joined: true, occupants: [] } as never;

  it('rings while a guest waits, and stops when it leaves the queue', () => {
    const { store, stop } = desk();
    store.dispatch(roomChanged({ snapshot, waiting: [guest] as never }));
    expect(stillRinging(store.getState(), 'staff-1')).toBe(true);
    expect(stop).not.toHaveBeenCalled();
    store.dispatch(roomChanged({ snapshot, waiting: [] }));
    expect(stop).toHaveBeenCalled();
  });

  it('stops when the agent goes away', () => {
    const { store, stop } = desk();
    store.dispatch(roomChanged({ snapshot, waiting: [guest] as never }));
    store.dispatch(availabilityChosen('away'));
    expect(stillRinging(store.getState(), 'staff-1')).toBe(false);
    expect(stop).toHaveBeenCalled();
  });
});
