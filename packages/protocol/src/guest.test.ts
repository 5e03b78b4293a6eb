import { describe, expect, it } from 'vitest';
import { fingerprintOf, formatGuestUsername, guestUsernameSchema } from './guest.ts';

describe('guest usernames (spec §1)', () => {
  it('join a fingerprint and a suffix with "_"', () => {
    expect(formatGuestUsername('a1b2c3d4e5f6a7b8', 'Xy12Ab34')).toBe('a1b2c3d4e5f6a7b8_Xy12Ab34');
  });

  it('give back their fingerprint, lower-cased, for block lists', () => {
    expect(fingerprintOf('A1B2C3D4E5F6_Xy12Ab34')).toBe('a1b2c3d4e5f6');
  });

  it.each([
    'abcdefgh',
    'abcdefgh_',
    '_12345678',
    'abcdefg_12345678',
    'abcdefgh_1234567',
    'abc-defgh_12345678',
    'abcdefgh_1234--5678',
    `${'a'.repeat(65)}_12345678`,
  ])('refuse %s', (username) => {
    expect(guestUsernameSchema.safeParse(username).success).toBe(false);
  });

  it('refuse to be built from bad parts', () => {
    expect(() => formatGuestUsername('short', '12345678')).toThrow();
    expect(() => fingerprintOf('not a username')).toThrow();
  });
});
