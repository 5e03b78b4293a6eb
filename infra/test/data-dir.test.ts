import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defaultDataDir,
  loadOrCreateSecrets,
  MACHINE_DATA_ROOT,
  prepareDataDir,
  readCopiedSecrets,
  type Secrets,
} from '../src/data-dir.ts';
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

describe('loadOrCreateSecrets', () => {
  it('adds a secret a newer version needs to an older file, keeping the others as they were', async () => {
    const data = prepareDataDir(join(dir.path, 'older'));
    const older: Partial<Secrets> = { ...loadOrCreateSecrets(data) };
    delete older.guestFingerprintKey;
    const file = join(data.root, 'secrets.json');
    await writeFile(file, JSON.stringify(older), { mode: 0o600 });

    const secrets = loadOrCreateSecrets(data);
    expect(secrets).toMatchObject(older);
    expect(secrets.guestFingerprintKey).toMatch(/^[\w-]{43}$/);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(secrets);
    expect(await othersMay(file)).toBe(0);
    // Read again, nothing changes.
    expect(loadOrCreateSecrets(data)).toEqual(secrets);
  });
});

describe('readCopiedSecrets', () => {
  it('refuses a copied file lacking a secret by name, and never adds it (a cluster machine)', async () => {
    const data = prepareDataDir(join(dir.path, 'copied'));
    const copied: Partial<Secrets> = { ...loadOrCreateSecrets(data) };
    delete copied.guestFingerprintKey;
    const file = join(data.root, 'secrets.json');
    const text = JSON.stringify(copied);
    await writeFile(file, text, { mode: 0o600 });

    expect(() => readCopiedSecrets(file)).toThrow(/guestFingerprintKey.*--make-secrets/);
    expect(await readFile(file, 'utf8')).toBe(text);
    await writeFile(file, JSON.stringify({ ...copied, guestFingerprintKey: 'k'.repeat(43) }));
    expect(readCopiedSecrets(file)).toEqual({ ...copied, guestFingerprintKey: 'k'.repeat(43) });
  });
});

describe('defaultDataDir', () => {
  it("is the clone's data/ when the servers' users can reach the clone", async () => {
    const clone = join(dir.path, 'open', 'frontdesk');
    await mkdir(clone, { recursive: true });
    await chmod(join(dir.path, 'open'), 0o755);
    expect(defaultDataDir(clone)).toEqual({ path: join(clone, 'data') });
  });

  it('is a folder of the clone’s own outside it when a folder above is closed (a home at 0700)', async () => {
    const home = join(dir.path, 'home');
    const clone = join(home, 'fd test');
    const twin = join(home, 'fd-test');
    await mkdir(clone, { recursive: true });
    await mkdir(twin, { recursive: true });
    await chmod(home, 0o700);
    const chosen = defaultDataDir(clone);
    expect(chosen.path).toMatch(new RegExp(`^${MACHINE_DATA_ROOT}/fd_test-[0-9a-f]{12}$`));
    expect(chosen.reason).toBe(`the postgres user cannot enter ${clone}`);
    // Stable for one clone, distinct between clones.
    expect(defaultDataDir(clone).path).toBe(chosen.path);
    expect(defaultDataDir(twin).path).not.toBe(chosen.path);
  });
});
