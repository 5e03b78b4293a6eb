import { stat } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateSecrets, prepareDataDir } from '../src/data-dir.ts';
import { tempDir } from './helpers.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('frontdesk-data-dir-test-');
});
afterAll(async () => {
  await dir?.remove();
});

const othersMay = async (path: string) => (await stat(path)).mode & 0o077;

describe('prepareDataDir', () => {
  it("keeps the guests' files, the logs and the secrets their owner's alone", async () => {
    const data = prepareDataDir(dir.path);
    loadOrCreateSecrets(data);
    expect(await othersMay(data.uploads)).toBe(0);
    expect(await othersMay(data.logs)).toBe(0);
    expect(await othersMay(`${data.root}/secrets.json`)).toBe(0);
    // The servers with users of their own may pass through the root, but not list it.
    expect((await stat(data.root)).mode & 0o777).toBe(0o711);
  });
});
