import { describe, expect, it } from 'vitest';
import {
  browserUsernameSchema,
  fingerprintOf,
  formatBrowserUsername,
  guestCredentialSchema,
  guestUsernameSchema,
} from './guest.ts';

describe("the browser's name (spec §1)", () => {
  it('joins a fingerprint and a suffix with "_"', () => {
    expect(formatBrowserUsername('a1b2c3d4e5f6a7b8', 'Xy12Ab34')).toBe('a1b2c3d4e5f6a7b8_Xy12Ab34');
  });

  it('gives back its fingerprint, lower-cased, for block lists', () => {
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
  ])('refuses %s', (username) => {
    expect(browserUsernameSchema.safeParse(username).success).toBe(false);
  });

  it('refuses to be built from bad parts', () => {
    expect(() => formatBrowserUsername('short', '12345678')).toThrow();
    expect(() => fingerprintOf('not a username')).toThrow();
  });
});

describe('public usernames and credentials (decision 0006)', () => {
  it('accept what the API makes', () => {
    expect(guestUsernameSchema.safeParse(`g${'a2'.repeat(12)}z`).success).toBe(true);
    expect(guestCredentialSchema.safeParse('A'.repeat(42) + '_').success).toBe(true);
  });

  it.each([
    'a1b2c3d4e5f6a7b8_Xy12Ab34',
    `g${'a'.repeat(24)}`,
    `G${'a'.repeat(25)}`,
    `g${'1'.repeat(25)}`,
  ])('refuse %s as a public username (a browser name is never one)', (username) => {
    expect(guestUsernameSchema.safeParse(username).success).toBe(false);
  });

  it('refuse credentials of the wrong length or alphabet', () => {
    expect(guestCredentialSchema.safeParse('A'.repeat(42)).success).toBe(false);
    expect(guestCredentialSchema.safeParse(`${'A'.repeat(42)}=`).success).toBe(false);
  });
});
