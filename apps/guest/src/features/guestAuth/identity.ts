import {
  formatBrowserUsername,
  guestRegistrationSchema,
  type GuestRegistration,
} from '@frontdesk/protocol';

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
 * spec §1: fingerprint, separator, generated suffix, the suffix kept in the browser; without
 * storage (private mode) a new one is made per visit. Sent only to registration (decision 0006).
 */
export function browserUsername(fingerprint: string, storage: Storage | undefined): string {
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
  return formatBrowserUsername(fingerprint, suffix);
}

const registrationKey = (companyId: number) => `frontdesk.guest.${companyId}`;

/**
 * The registration this browser kept for the company, so a returning guest logs in as itself
 * (its welcome form and earlier calls stay its own); `undefined` when there is none or what is
 * stored is not one. SECURITY: it holds the credential, so it stays in this browser's storage.
 */
export function keptRegistration(
  storage: Storage | undefined,
  companyId: number,
): GuestRegistration | undefined {
  try {
    const text = storage?.getItem(registrationKey(companyId));
    return text ? guestRegistrationSchema.safeParse(JSON.parse(text)).data : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the registration (or forgets it, with `undefined`); without storage, for this visit only. */
export function keepRegistration(
  storage: Storage | undefined,
  companyId: number,
  registration: GuestRegistration | undefined,
): void {
  try {
    if (registration) storage?.setItem(registrationKey(companyId), JSON.stringify(registration));
    else storage?.removeItem(registrationKey(companyId));
  } catch {
    // Private mode or a full storage: the guest registers again on its next visit.
  }
}

/**
 * Forgets the guest this browser is for the company (the embedding site's visitor signed out,
 * decision 0021): its kept registration and the suffix of its name, so the next visit registers
 * a new guest.
 */
export function forgetGuest(storage: Storage | undefined, companyId: number): void {
  keepRegistration(storage, companyId, undefined);
  try {
    storage?.removeItem(SUFFIX_KEY);
  } catch {
    // Nothing kept.
  }
}

/** A suffix for a new call id (spec §3: username, `--`, suffix). */
export const callSuffix = () => randomSuffix(12);
