import { createHash, randomBytes } from 'node:crypto';

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
