// How the stack notices a renewed certificate (certbot's way: the names lead to new files) and
// refuses one caught half-way, before Caddy and coturn are told to reload.
import { readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  certificateFingerprint,
  certificatePairProblem,
  watchCertificate,
} from '../src/certificate-files.ts';
import { selfSignedCertificate, tempDir } from './helpers.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('frontdesk-certificate-files-');
});
afterAll(async () => {
  await dir?.remove();
});

describe('watchCertificate', () => {
  it('reports a change of contents, through symbolic links too, none without one, none after stop', async () => {
    const first = await selfSignedCertificate(join(dir.path, 'first'), 'calls.frontdesk.test', 1);
    const second = await selfSignedCertificate(join(dir.path, 'second'), 'calls.frontdesk.test', 1);
    // As certbot's live/ folder: links to the current files of archive/.
    const live = {
      certFile: join(dir.path, 'fullchain.pem'),
      keyFile: join(dir.path, 'privkey.pem'),
    };
    await symlink(first.certFile, live.certFile);
    await symlink(first.keyFile, live.keyFile);
    const renewals: string[] = [];
    const stop = watchCertificate(live, await certificateFingerprint(live), 20, async () => {
      renewals.push(await readFile(live.certFile, 'utf8'));
    });
    try {
      // Checked many times over, unchanged: no renewal.
      await new Promise((done) => setTimeout(done, 200));
      expect(renewals).toEqual([]);
      for (const [link, target] of [
        [live.certFile, second.certFile],
        [live.keyFile, second.keyFile],
      ] as const) {
        await rm(link);
        await symlink(target, link);
      }
      // A check between the two links reports the first half too; the last saw the whole.
      await vi.waitFor(() => expect(renewals.at(-1)).toBe(second.cert));
    } finally {
      stop();
    }
    const seen = renewals.length;
    await writeFile(live.certFile, first.cert);
    await new Promise((done) => setTimeout(done, 200));
    expect(renewals).toHaveLength(seen);
  });
});

describe('certificatePairProblem', () => {
  it('accepts a certificate with its key, and says what is wrong with a mismatched pair', async () => {
    const one = await selfSignedCertificate(join(dir.path, 'one'), 'calls.frontdesk.test', 1);
    const other = await selfSignedCertificate(join(dir.path, 'other'), 'calls.frontdesk.test', 1);
    expect(await certificatePairProblem(one)).toBeUndefined();
    expect(await certificatePairProblem({ certFile: one.certFile, keyFile: other.keyFile })).toBe(
      `${other.keyFile} is not its key`,
    );
    expect(
      await certificatePairProblem({
        certFile: join(dir.path, 'missing.pem'),
        keyFile: one.keyFile,
      }),
    ).toMatch(/ENOENT/);
  });
});
