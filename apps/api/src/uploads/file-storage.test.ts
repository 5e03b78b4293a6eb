import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD_BYTES, LocalFileStorage } from './file-storage.ts';

const streamOf = (...chunks: string[]) => Readable.from(chunks.map((c) => Buffer.from(c)));

describe('LocalFileStorage', () => {
  let root: string;
  let storage: LocalFileStorage;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'frontdesk-storage-'));
    storage = new LocalFileStorage(root);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('gives back what it received and kept, with its size and head', async () => {
    const incoming = await storage.receive(streamOf('hel', 'lo'));
    expect(incoming.size).toBe(5);
    expect(Buffer.from(incoming.head).toString()).toBe('hello');
    await incoming.keep('abcdefghijklmnop');
    expect(await text(await storage.open('abcdefghijklmnop'))).toBe('hello');
  });

  it('keeps only the first bytes of a large file as its head', async () => {
    const big = 'x'.repeat(HEAD_BYTES + 10);
    const incoming = await storage.receive(streamOf(big.slice(0, 1000), big.slice(1000)));
    expect(incoming.size).toBe(big.length);
    expect(incoming.head.length).toBe(HEAD_BYTES);
    await incoming.discard();
  });

  it('never overwrites a file', async () => {
    await (await storage.receive(streamOf('1'))).keep('overwriteoverwrite');
    const second = await storage.receive(streamOf('2'));
    await expect(second.keep('overwriteoverwrite')).rejects.toThrow();
    expect(await text(await storage.open('overwriteoverwrite'))).toBe('1');
  });

  it('leaves nothing behind a discarded file', async () => {
    await (await storage.receive(streamOf('gone'))).discard();
    expect(await readdir(join(root, 'incoming'))).toEqual([]);
  });

  it('rejects a missing file', async () => {
    await expect(storage.open('missingmissingmissing')).rejects.toThrow(/ENOENT/);
  });

  it('removes a file, and a file already gone is no error (retention, decision 0031)', async () => {
    await (await storage.receive(streamOf('old'))).keep('removeremoveremove');
    await storage.remove('removeremoveremove');
    await expect(storage.open('removeremoveremove')).rejects.toThrow(/ENOENT/);
    await expect(storage.remove('removeremoveremove')).resolves.toBeUndefined();
    await expect(storage.remove('../../etc/passwd')).rejects.toThrow(/Invalid storage key/);
  });

  it('refuses keys that could leave its folder', async () => {
    const incoming = await storage.receive(streamOf('x'));
    await expect(incoming.keep('../../etc/passwd')).rejects.toThrow(/Invalid storage key/);
    await incoming.discard();
    await expect(storage.open('..%2f..%2fsecrets')).rejects.toThrow(/Invalid storage key/);
  });
});
