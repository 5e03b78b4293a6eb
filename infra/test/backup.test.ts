// A backup taken from a running cluster of its own comes back byte for byte into an empty data
// folder; a folder with data in it and an altered archive are refused.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { create as createTar, extract } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, SEEDED_COMPANY } from '@frontdesk/api/seed';
// The API's own migrations make the schema a real installation has; the package exports no
// entry point for them, so the test reaches into its source.
import { openDatabase } from '../../apps/api/src/db/database.ts';
import { migrateToLatest } from '../../apps/api/src/db/migrate.ts';
import { createBackup } from '../src/backup/create.ts';
import { restoreBackup } from '../src/backup/restore.ts';
import { loadOrCreateSecrets, prepareDataDir, type DataDir } from '../src/data-dir.ts';
import { startLocalPostgres } from '../src/postgres.ts';
import { tempDir } from './helpers.ts';

const sha256 = async (path: string) =>
  createHash('sha256')
    .update(await readFile(path))
    .digest('hex');

const CALL_ID = 'backupguest0001~visitor@frontdesk.localhost~c1';
const UPLOAD = 'ab/abcdefghijklmnopqrstuv';
const RECORDING = `${SEEDED_COMPANY.demo}-call-1-user-1-video.mjr`;

/** The call report of the test, as text, from the database at `url`. */
async function callReport(url: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ report: string }>(
      'select row_to_json(r)::text as report from call_reports r where call_id = $1',
      [CALL_ID],
    );
    return rows[0]?.report;
  } finally {
    await client.end();
  }
}

let tmp: Awaited<ReturnType<typeof tempDir>>;
let source: DataDir;
let archive: string;
let original: { report: unknown; upload: string; recording: string; secrets: string };

beforeAll(async () => {
  tmp = await tempDir('frontdesk-backup-test-');
  source = prepareDataDir(join(tmp.path, 'source'));
  const { guestFingerprintKey: fingerprintKey } = loadOrCreateSecrets(source);
  const postgres = await startLocalPostgres(source);
  try {
    const db = await openDatabase(postgres.url);
    try {
      await migrateToLatest(db, { fingerprintKey });
      await seedDemo(db, { fingerprintKey, logins: false });
      const guest = await db
        .insertInto('guests')
        .values({
          company_id: SEEDED_COMPANY.demo,
          username: 'backupguest0001~visitor',
          fingerprint: 'backupguest0001',
          jabberusername: 'backupguest0001~visitor@frontdesk.localhost',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('call_reports')
        .values({
          company_id: SEEDED_COMPANY.demo,
          guest_id: guest.id,
          call_id: CALL_ID,
          origin_call_id: CALL_ID,
          source: 'site',
          status: 'ok',
          call_type: 'video',
          rating: 4,
        })
        .execute();
    } finally {
      await db.destroy();
    }
    await mkdir(join(source.uploads, 'ab'), { recursive: true });
    await writeFile(join(source.uploads, UPLOAD), randomBytes(200_000), { mode: 0o600 });
    await writeFile(join(source.recordings, RECORDING), randomBytes(300_000));
    // A partial upload still arriving: not part of the backup.
    await mkdir(join(source.uploads, 'incoming'), { recursive: true });
    await writeFile(join(source.uploads, 'incoming', 'partial'), 'half a file');
    original = {
      report: await callReport(postgres.url),
      upload: await sha256(join(source.uploads, UPLOAD)),
      recording: await sha256(join(source.recordings, RECORDING)),
      secrets: await sha256(join(source.root, 'secrets.json')),
    };
    // Taken while the cluster runs, as `npm run backup` beside `npm start` would.
    archive = join(tmp.path, 'backup.tar.gz');
    await createBackup({ dataDir: source.root, out: archive });
  } finally {
    await postgres.stop();
  }
}, 60_000);

afterAll(async () => {
  await tmp?.remove();
});

describe('backup and restore', () => {
  it('writes an owner-only archive whose manifest counts what it holds', async () => {
    expect((await stat(archive)).mode & 0o777).toBe(0o600);
    const staged = join(tmp.path, 'listed');
    await mkdir(staged);
    await extract({ file: archive, cwd: staged });
    const manifest = JSON.parse(await readFile(join(staged, 'manifest.json'), 'utf8'));
    expect(manifest.counts).toMatchObject({ uploads: 1, recordings: 1 });
    expect(manifest.database.rows['public.call_reports']).toBe(1);
    expect(manifest.files.map((file: { path: string }) => file.path).sort()).toEqual(
      ['database.dump', 'secrets.json', `uploads/${UPLOAD}`, `recordings/${RECORDING}`].sort(),
    );
  });

  it('brings the call report, the upload, the recording and the secrets back byte for byte', async () => {
    const target = join(tmp.path, 'restored');
    await restoreBackup({ archive, dataDir: target });
    const restored = prepareDataDir(target);
    expect(await sha256(join(restored.uploads, UPLOAD))).toBe(original.upload);
    expect(await sha256(join(restored.recordings, RECORDING))).toBe(original.recording);
    expect(await sha256(join(restored.root, 'secrets.json'))).toBe(original.secrets);
    expect((await stat(join(restored.root, 'secrets.json'))).mode & 0o777).toBe(0o600);
    expect(existsSync(join(restored.root, '.restoring'))).toBe(false);
    // What `npm start` does next: start the restored cluster and read the same row.
    const postgres = await startLocalPostgres(restored);
    try {
      expect(await callReport(postgres.url)).toBe(original.report);
    } finally {
      await postgres.stop();
    }
  }, 45_000);

  it('refuses a data folder that is not empty', async () => {
    await expect(restoreBackup({ archive, dataDir: source.root })).rejects.toThrow(
      /is not empty .*Restore into an empty folder/,
    );
    // Nothing of the installation was touched.
    expect(await sha256(join(source.uploads, UPLOAD))).toBe(original.upload);
  });

  it('refuses an archive altered after it was written, leaving the folder empty', async () => {
    const unpacked = join(tmp.path, 'tamper');
    await mkdir(unpacked);
    await extract({ file: archive, cwd: unpacked });
    await writeFile(join(unpacked, 'uploads', UPLOAD), randomBytes(200_000));
    const tampered = join(tmp.path, 'tampered.tar.gz');
    await pipeline(
      createTar({ gzip: true, cwd: unpacked }, await readdir(unpacked)),
      createWriteStream(tampered),
    );
    const target = join(tmp.path, 'refused');
    await mkdir(target);
    await expect(restoreBackup({ archive: tampered, dataDir: target })).rejects.toThrow(
      `uploads/${UPLOAD} in the archive does not match its manifest`,
    );
    expect(await readdir(target)).toEqual([]);
  });

  it('refuses a truncated archive', async () => {
    const truncated = join(tmp.path, 'truncated.tar.gz');
    const bytes = await readFile(archive);
    await writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expect(
      restoreBackup({ archive: truncated, dataDir: join(tmp.path, 'never') }),
    ).rejects.toThrow(/is not a readable backup archive/);
    expect(existsSync(join(tmp.path, 'never'))).toBe(false);
  });
});
