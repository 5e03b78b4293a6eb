import { formatGuestUsername } from '@frontdesk/protocol';

const SUFFIX_KEY = 'frontdesk.guestSuffix';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomSuffix(length = 16): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join('');
}

/** The browser fingerprint (FingerprintJS, open source; its statistics request switched off). */
export async function computeFingerprint(): Promise<string> {
  const FingerprintJS = await import('@fingerprintjs/fingerprintjs');
  const agent = await FingerprintJS.load({ monitoring: false });
  return (await agent.get()).visitorId;
}

/**
 * spec §1: fingerprint, separator, generated suffix. The suffix is kept in the browser so a
 * returning guest keeps its username (registration is idempotent for it); without storage
 * (private mode) a new one is made per visit.
 */
export function guestUsername(fingerprint: string, storage: Storage | undefined): string {
  let suffix: string | null = null;
  try {
    suffix = storage?.getItem(SUFFIX_KEY) ?? null;
    if (!suffix || !/^[A-Za-z0-9]{8,64}$/.test(suffix)) {
      suffix = randomSuffix();
      storage?.setItem(SUFFIX_KEY, suffix);
    }
  } catch {
    suffix = randomSuffix();
  }
  return formatGuestUsername(fingerprint, suffix);
}

/** A suffix for a new call id (spec §3: username, `--`, suffix). */
export const callSuffix = () => randomSuffix(12);
