import { createHash, createHmac, randomBytes } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * A guest's public username (decision 0006): `g` and 25 base32 letters, 125 random bits, so
 * two guests never share one. Public: it proves nothing.
 */
export function newGuestUsername(): string {
  return `g${[...randomBytes(25)].map((byte) => BASE32[byte % 32]).join('')}`;
}

/** A guest's credential: 256 random bits, base64url (43 characters), seen by its browser only. */
export function newGuestCredential(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What the database keeps of a credential. A plain SHA-256 is enough: the secret has 256
 * random bits, so there is nothing to guess that a slow hash would protect, and logins stay one
 * indexed lookup.
 */
export function credentialHash(credential: string): string {
  return createHash('sha256').update(credential).digest('hex');
}

/**
 * What the database keeps of a browser's fingerprint (decision 0033): its HMAC-SHA-256 under the
 * installation's `GUEST_FINGERPRINT_KEY`, in hex. The same browser always gives the same value, so
 * a company's block list still matches it; without the key, which is not in the database, a copy
 * of the tables cannot be matched against fingerprints taken elsewhere.
 */
export function keyedFingerprint(key: string, fingerprint: string): string {
  return createHmac('sha256', key).update(fingerprint.toLowerCase()).digest('hex');
}
