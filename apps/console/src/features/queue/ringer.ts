import { focusOnClick } from '../../app/notificationFocus.ts';
import type { Ringer } from '../../app/services.ts';

/** The sounds an agent can choose for a new guest (issue 19 item 3). */
export const RING_SOUNDS = ['chime', 'bell', 'pulse'] as const;
export type RingSound = (typeof RING_SOUNDS)[number];
export type RingPreferences = { sound: RingSound; volume: number };

/** Each sound as tones: a pitch, when it starts and how long it lasts (seconds). */
const TONES: Record<RingSound, { hz: number; at: number; s: number }[]> = {
  chime: [
    { hz: 880, at: 0, s: 0.16 },
    { hz: 1175, at: 0.18, s: 0.16 },
  ],
  bell: [
    { hz: 1318, at: 0, s: 0.6 },
    { hz: 1318, at: 0.7, s: 0.6 },
  ],
  pulse: [
    { hz: 660, at: 0, s: 0.1 },
    { hz: 660, at: 0.2, s: 0.1 },
    { hz: 660, at: 0.4, s: 0.1 },
  ],
};

/** The ring sounds again this often until the guest is answered or offered away. */
export const RING_REPEAT_MS = 3_000;

const PREFERENCES_KEY = 'frontdesk.console.ring';
const DEFAULTS: RingPreferences = { sound: 'chime', volume: 0.6 };

/** The agent's ring, kept in this browser (a preference of the person at this desk). */
export function readRingPreferences(): RingPreferences {
  try {
    const kept = JSON.parse(localStorage.getItem(PREFERENCES_KEY) ?? 'null') as unknown;
    if (!kept || typeof kept !== 'object') return DEFAULTS;
    const { sound, volume } = kept as Partial<Record<keyof RingPreferences, unknown>>;
    return {
      sound: RING_SOUNDS.includes(sound as RingSound) ? (sound as RingSound) : DEFAULTS.sound,
      volume: typeof volume === 'number' && volume >= 0 && volume <= 1 ? volume : DEFAULTS.volume,
    };
  } catch {
    return DEFAULTS;
  }
}

export function writeRingPreferences(preferences: RingPreferences): void {
  try {
    localStorage.setItem(PREFERENCES_KEY, JSON.stringify(preferences));
  } catch {
    // Storage refused: the choice lasts this page.
  }
}

/**
 * A ring that repeats: `ring()` sounds at once and again every RING_REPEAT_MS until `stop()`;
 * ringing again while it rings changes nothing. What it sounds and shows is passed in, so a unit
 * test can count it.
 */
export function repeatingRinger(parts: {
  sound: (preferences: RingPreferences) => void;
  notify: (notice: Parameters<Ringer['ring']>[0]) => void;
  preferences?: () => RingPreferences;
}): Ringer & { readonly ringing: boolean } {
  const preferences = parts.preferences ?? readRingPreferences;
  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    get ringing() {
      return timer !== undefined;
    },
    ring(notice) {
      parts.notify(notice);
      if (timer !== undefined) return;
      parts.sound(preferences());
      timer = setInterval(() => parts.sound(preferences()), RING_REPEAT_MS);
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}

let audio: AudioContext | undefined;

/** Plays one ring through Web Audio, at the agent's volume (also the settings' "Play"). */
export function playRing({ sound, volume }: RingPreferences): void {
  if (volume <= 0) return;
  try {
    audio ??= new AudioContext();
    // Autoplay rules keep a context suspended until the page was interacted with; signing in
    // counts, so this resumes in practice.
    void audio.resume();
    for (const tone of TONES[sound]) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      const start = audio.currentTime + tone.at;
      oscillator.type = sound === 'bell' ? 'triangle' : 'sine';
      oscillator.frequency.value = tone.hz;
      gain.gain.setValueAtTime(0.35 * volume, start);
      gain.gain.exponentialRampToValueAtTime(0.001, start + tone.s);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(start);
      oscillator.stop(start + tone.s);
    }
  } catch {
    // No audio output (or no Web Audio): the title badge and the list still show the guest.
  }
}

/**
 * The browser's way of announcing a new guest: a ring through Web Audio, repeated until the
 * guest is answered or offered to someone else (ringing.ts stops it), and, when the agent allowed
 * it and is looking elsewhere, a desktop notification.
 */
export function browserRinger(): Ringer {
  return repeatingRinger({
    sound: playRing,
    notify({ title, body, guestNick }) {
      if (
        typeof Notification !== 'undefined' &&
        Notification.permission === 'granted' &&
        document.visibilityState === 'hidden'
      ) {
        focusOnClick(new Notification(title, { body, tag: 'frontdesk-queue' }), { guestNick });
      }
    },
  });
}
