import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestAppWithChat, type TestAppWithChat } from './chat-server.ts';
import { COMPANY, seedGuestEverywhere, unzip, type SeededGuest } from './guest-data-fixture.ts';
import { bearer, loginStaff } from './helper.ts';
import { holdRowLock } from './row-lock.ts';

/**
 * decision 0032: a file the export's rows name may be deleted (by the nightly retention run)
 * before its turn in the archive comes. The archive is still whole, and says what is missing.
 */
describe('a guest’s export when its files go while it is made', () => {
  let t: TestAppWithChat;
  let admin: string;
  let seeded: SeededGuest;
  const MARKER = 'cleaexportedguest';

  beforeAll(async () => {
    t = await buildTestAppWithChat('privacy-export');
    admin = await loginStaff(t.app, 'admin@frontdesk.demo');
    seeded = await seedGuestEverywhere(t, admin, MARKER, '192.0.2.44');
  }, 60_000);
  afterAll(() => t.close());

  it('skips a file deleted after the rows were read, and lists it in data.json', async () => {
    // The export reads the rows, then logs itself: its audit entry waits for this lock on the
    // company, so the files go after the rows are read and before anything is streamed.
    const lock = await holdRowLock(t.app.db, (trx) =>
      trx.selectFrom('companies').select('id').where('id', '=', COMPANY).forUpdate().execute(),
    );
    const exported = (async () =>
      t.app.inject({
        method: 'GET',
        url: `/api/company/${COMPANY}/guests/${seeded.guest.id}/export`,
        headers: bearer(admin),
      }))();
    await lock.waitedOn();
    // As the retention run deletes them: the guest's own file (the archive's first) and its
    // call's film (the last).
    await lock.release(async () => {
      await t.app.fileStorage.remove(seeded.uploadId);
      await rm(join(t.config.dataDir, 'recordings', seeded.film));
    });

    const response = await exported;
    expect(response.statusCode).toBe(200);
    // A whole archive: unzip's own test reads every entry and its checksum.
    const folder = await mkdtemp(join(tmpdir(), 'guest-export-'));
    try {
      const path = join(folder, 'guest.zip');
      await writeFile(path, response.rawPayload);
      const { stdout } = await promisify(execFile)('unzip', ['-t', path]);
      expect(stdout).toContain('No errors detected');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    const entries = await unzip(response.rawPayload);
    expect([...entries.keys()].sort()).toEqual([
      'data.json',
      `files/${seeded.agentUploadId}-price list for ${MARKER}.pdf`,
    ]);
    expect(entries.get(`files/${seeded.agentUploadId}-price list for ${MARKER}.pdf`)).toEqual(
      Buffer.from(seeded.agentDocument),
    );
    const data = JSON.parse(entries.get('data.json')?.toString() ?? '{}') as {
      uploads: { id: string }[];
      missingFiles: unknown[];
    };
    // The rows are as read; the files that were gone are named, not their contents.
    expect(data.uploads.map((upload) => upload.id)).toEqual([
      seeded.uploadId,
      seeded.agentUploadId,
    ]);
    expect(data.missingFiles).toEqual([
      { table: 'uploads', id: seeded.uploadId, entry: `files/${seeded.uploadId}-${MARKER}.pdf` },
      {
        table: 'call_recordings',
        call_report_id: seeded.callReportIds[0],
        entry: `recordings/${seeded.film}`,
      },
    ]);
  });
});
