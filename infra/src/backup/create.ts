// `npm run backup`: one .tar.gz with the database dump, the uploads, the recordings and the
// secrets, and a manifest that lists each file's sha256. Safe while Frontdesk runs: the dump is one
// snapshot, and files are copied as they are at that moment.
import { constants, createWriteStream, existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { create as createTar } from 'tar';
import { prepareDataDir } from '../data-dir.ts';
import { dumpDatabase, openLocalDatabase, type Database } from './database.ts';
import {
  BackupError,
  DATABASE_FILE,
  digestFile,
  FILE_FOLDERS,
  listFiles,
  MANIFEST_FILE,
  MANIFEST_VERSION,
  SECRETS_FILE,
  type Manifest,
  type ManifestFile,
} from './manifest.ts';

export type BackupOptions = {
  /** The data folder to back up (`FRONTDESK_DATA_DIR`). */
  dataDir: string;
  /** An external database (`DATABASE_URL`); without it, the project's own cluster. */
  databaseUrl?: string;
  /** Where the archive goes; default `<dataDir>/backups/frontdesk-<time>.tar.gz`. */
  out?: string;
  log?: (line: string) => void;
  /** The backup's time, for the manifest and the default name (tests pin it). */
  now?: Date;
};

export type BackupResult = { archive: string; bytes: number; manifest: Manifest };

/**
 * Files still being written, left out: a partial upload (`uploads/incoming/`, renamed into place
 * once complete or deleted) and an MP4 merge in progress (renamed once done).
 */
const inFlight = (folder: string, path: string) =>
  (folder === 'uploads' && path.startsWith('incoming/')) ||
  (folder === 'recordings' && path.endsWith('.merging.mp4'));

/** Copies one file into the staging folder; false when it vanished in the meantime. */
async function stageFile(from: string, to: string): Promise<boolean> {
  await mkdir(dirname(to), { recursive: true, mode: 0o700 });
  try {
    // A reflink where the file system offers one, a plain copy elsewhere.
    await copyFile(from, to, constants.COPYFILE_FICLONE);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const log = options.log ?? (() => undefined);
  const now = options.now ?? new Date();
  const root = resolve(options.dataDir);
  if (!existsSync(join(root, SECRETS_FILE))) {
    throw new BackupError(
      `${root} is not a Frontdesk data folder (no ${SECRETS_FILE}): nothing to back up. Set FRONTDESK_DATA_DIR to the folder npm start uses.`,
    );
  }
  const dir = prepareDataDir(root);
  const archive = resolve(
    options.out ??
      join(root, 'backups', `frontdesk-${now.toISOString().replace(/[:.]/g, '-')}.tar.gz`),
  );
  if (existsSync(archive)) throw new BackupError(`${archive} exists already; name another file.`);
  // SECURITY: the archive holds the secrets and what guests sent: its folder is created owner-only.
  await mkdir(dirname(archive), { recursive: true, mode: 0o700 });
  // Staged beside the archive, so the copies land on its file system and the final rename is atomic.
  const staging = await mkdtemp(join(dirname(archive), '.frontdesk-backup-'));
  try {
    const files: ManifestFile[] = [];
    const add = async (path: string) => {
      files.push({ path, ...(await digestFile(join(staging, path))) });
    };

    let database: Database;
    if (options.databaseUrl) {
      database = { url: options.databaseUrl, release: async () => undefined };
    } else {
      log('Reaching the PostgreSQL cluster in the data folder…');
      database = await openLocalDatabase(dir);
    }
    log('Dumping the database (pg_dump)…');
    const dumped = await dumpDatabase(database.url, join(staging, DATABASE_FILE)).finally(() =>
      database.release(),
    );
    await add(DATABASE_FILE);

    await copyFile(join(root, SECRETS_FILE), join(staging, SECRETS_FILE));
    await add(SECRETS_FILE);

    const counts = { uploads: 0, recordings: 0, bytes: 0 };
    for (const folder of FILE_FOLDERS) {
      log(`Copying ${folder}…`);
      for (const path of await listFiles(dir[folder])) {
        if (inFlight(folder, path)) continue;
        const inArchive = `${folder}/${path}`;
        if (!(await stageFile(join(dir[folder], path), join(staging, inArchive)))) continue;
        await add(inArchive);
        counts[folder] += 1;
      }
    }
    counts.bytes = files.reduce((sum, file) => sum + file.size, 0);

    const manifest: Manifest = {
      format: 'frontdesk-backup',
      version: MANIFEST_VERSION,
      createdAt: now.toISOString(),
      database: {
        source: options.databaseUrl ? 'external' : 'local',
        serverVersion: dumped.serverVersion,
        rows: dumped.rows,
      },
      counts,
      files,
    };
    await writeFile(join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);

    log('Writing the archive…');
    const partial = `${archive}.partial`;
    // The manifest first, so a reader meets it before the files it describes.
    const entries = [MANIFEST_FILE, DATABASE_FILE, SECRETS_FILE, ...FILE_FOLDERS].filter((entry) =>
      existsSync(join(staging, entry)),
    );
    try {
      await pipeline(
        // portable: no user names or ids of this machine, which mean nothing on another.
        createTar({ gzip: true, cwd: staging, portable: true }, entries),
        createWriteStream(partial, { flags: 'wx', mode: 0o600 }),
      );
      await chmod(partial, 0o600);
      await rename(partial, archive);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return { archive, bytes: (await stat(archive)).size, manifest };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
