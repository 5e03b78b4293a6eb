import { GEOLOCATION_TIMEOUT_MS } from '@frontdesk/protocol';
import type { GuestLocation } from '../guestAuth/guestAuthSlice.ts';

/**
 * spec §7, §9: high accuracy, 10 s timeout, no cached position. spec §8: without geolocation
 * support it rejects with 'Could not get location'; otherwise it passes on the browser's error.
 */
export function readLocation(geolocation: Geolocation | undefined): Promise<GuestLocation> {
  return new Promise((resolve, reject) => {
    if (!geolocation) {
      reject(new Error('Could not get location'));
      return;
    }
    geolocation.getCurrentPosition(
      ({ coords }) =>
        resolve({
          latitude: String(coords.latitude),
          longitude: String(coords.longitude),
          // For the agent's panel: how far off the position may be (issue 19).
          accuracy: String(coords.accuracy),
        }),
      (error) => reject(new Error(error.message || 'Could not get location')),
      { enableHighAccuracy: true, timeout: GEOLOCATION_TIMEOUT_MS, maximumAge: 0 },
    );
  });
}
