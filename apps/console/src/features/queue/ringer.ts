import type { Ringer } from '../../app/services.ts';

/** A short two-tone chime: long enough to notice, short enough not to annoy (issue 7). */
const CHIME = [
  { hz: 880, at: 0 },
  { hz: 1175, at: 0.18 },
];
const TONE_S = 0.16;

/**
 * The browser's way of announcing a new guest: a chime through Web Audio and, when the agent
 * allowed it and is looking elsewhere, a desktop notification.
 */
export function browserRinger(): Ringer {
  let audio: AudioContext | undefined;
  return {
    ring({ title, body }) {
      try {
        audio ??= new AudioContext();
        // Autoplay rules keep a context suspended until the page was interacted with; signing in
        // counts, so this resumes in practice.
        void audio.resume();
        for (const tone of CHIME) {
          const oscillator = audio.createOscillator();
          const gain = audio.createGain();
          const start = audio.currentTime + tone.at;
          oscillator.frequency.value = tone.hz;
          gain.gain.setValueAtTime(0.2, start);
          gain.gain.exponentialRampToValueAtTime(0.001, start + TONE_S);
          oscillator.connect(gain).connect(audio.destination);
          oscillator.start(start);
          oscillator.stop(start + TONE_S);
        }
      } catch {
        // No audio output (or no Web Audio): the title badge and the list still show the guest.
      }
      if (
        typeof Notification !== 'undefined' &&
        Notification.permission === 'granted' &&
        document.visibilityState === 'hidden'
      ) {
        new Notification(title, { body, tag: 'frontdesk-queue' });
      }
    },
  };
}
