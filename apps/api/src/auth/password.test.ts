import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password.ts';

describe('passwords', () => {
  it('hashes with scrypt and a salt of its own each time', async () => {
    const [a, b] = await Promise.all([
      hashPassword('correct horse'),
      hashPassword('correct horse'),
    ]);
    expect(a).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
    expect(a).not.toBe(b);
  });

  it('accepts the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('correct horse');
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horsf', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('never matches a malformed hash', async () => {
    for (const stored of [
      '',
      'plain',
      'bcrypt$x$y',
      'scrypt$abc$8$1$c2FsdA$aGFzaA',
      'scrypt$16384$8$1$$',
    ]) {
      expect(await verifyPassword('anything', stored)).toBe(false);
    }
  });
});
