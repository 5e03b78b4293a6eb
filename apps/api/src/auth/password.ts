import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * OWASP's scrypt minimum (N = 2^17, r = 8, p = 1): 128 MiB of memory a hash, so guessing
 * stolen hashes on GPUs is slow and costly. Hashes made with Node's old defaults (N = 2^14)
 * carry their parameters and still verify.
 */
const PARAMS = { N: 131_072, r: 8, p: 1 } as const;
/**
 * scrypt needs 128·N·r bytes; Node refuses above `maxmem` (32 MiB by default). SECURITY: also
 * the cap on what a stored hash may ask for, so no row can make one login take gigabytes.
 */
const MAX_MEMORY = 2 * 128 * PARAMS.N * PARAMS.r;
const KEY_BYTES = 64;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/**
 * A password the API makes up (a company's first admin, an invite, a reset, an operator): 144
 * random bits, 24 URL-safe characters, so it can be read out or pasted without escaping.
 */
export const generatePassword = (): string => randomBytes(18).toString('base64url');

/** Hashes with scrypt and a fresh salt: `scrypt$N$r$p$<salt>$<hash>` (base64url parts). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, { ...PARAMS, maxmem: MAX_MEMORY });
  return [
    'scrypt',
    PARAMS.N,
    PARAMS.r,
    PARAMS.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

/**
 * Checks a password against a stored hash in constant time; a malformed hash never matches.
 * The parameters come from the hash, so stronger ones can be rolled out without a migration.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const options = { N: Number(n), r: Number(r), p: Number(p), maxmem: MAX_MEMORY };
  if (![options.N, options.r, options.p].every(Number.isSafeInteger)) return false;
  // Parameters scrypt refuses (over the memory cap, N not a power of two) never match.
  const actual = await derive(password, Buffer.from(salt, 'base64url'), options).catch(() => null);
  return actual !== null && actual.length === expected.length && timingSafeEqual(actual, expected);
}
