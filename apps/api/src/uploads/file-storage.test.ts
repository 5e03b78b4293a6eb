import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFileStorage } from './file-storage.ts';

describe('LocalFileStorage', () => {
  let root: string;
  let storage: LocalFileStorage;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'frontdesk-storage-'));
    storage = new LocalFileStorage(root);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('gives back what it saved', async () => {
    await storage.save('abcdefghijklmnop', new TextEncoder().encode('hello'));
    expect(await text(await storage.open('abcdefghijklmnop'))).toBe('hello');
  });

  it('never overwrites a file', async () => {
    await storage.save('overwriteoverwrite', new Uint8Array([1]));
    await expect(storage.save('overwriteoverwrite', new Uint8Array([2]))).rejects.toThrow();
  });

  it('rejects a missing file', async () => {
    await expect(storage.open('missingmissingmissing')).rejects.toThrow(/ENOENT/);
  });

  it('refuses keys that could leave its folder', async () => {
    await expect(storage.save('../../etc/passwd', new Uint8Array())).rejects.toThrow(
      /Invalid storage key/,
    );
    await expect(storage.open('..%2f..%2fsecrets')).rejects.toThrow(/Invalid storage key/);
  });
});
