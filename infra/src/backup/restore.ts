// `npm run restore -- <archive>`: checks an archive against its manifest, then brings it back into
// an empty data folder (loading the dump into the project's own cluster, or into an empty database
// at DATABASE_URL), so that the next `npm start` comes up with the restored data.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { extract, list } from 'tar';
import { prepareDataDir } from '../data-dir.ts';
import { startLocalPostgres } from '../postgres.ts';
import { assertDatabaseEmpty, loadDatabase } from './database.ts';
import {
  BackupError,
  DATABASE_FILE,
  FILE_FOLDERS,
  listFiles,
  MANIFEST_FILE,
  MANIFEST_VERSION,
  manifestSchema,
  SECRETS_FILE,
  checkAgainstManifest,
  digestFolder,
  type Digest,
  type Manifest,
} from './manifest.ts';

export type RestoreOptions = {
  archive: string;
  /** The data folder to restore into: absent or empty. */
  dataDir: string;
  /** An external, empty database (`DATABASE_URL`); without it, the project's own cluster. */
  databaseUrl?: string;
  log?: (line: string) => void;
};

/** Where the archive is unpacked and checked before anything lands in the data folder itself. */
const STAGING = '.restoring';

/** Refuses a data folder that holds any file: a restore never mixes two installations. */
async function assertEmpty(root: string): Promise<void> {
  if (!existsSync(root)) return;
  const files = await listFiles(root);
  if (files.length === 0) return;
  const shown = files.slice(0, 3).join(', ');
  throw new BackupError(
    `${root} is not empty (${files.length} files, e.g. ${shown}). Restore into an empty folder: move this one aside (mv ${root} ${root}.old) or set FRONTDESK_DATA_DIR to another.`,
  );
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The manifest of an archive, validated; a BackupError saying what is wrong with it otherwise. */
function parseManifest(archive: string, text: string | undefined): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(text ?? '');
  } catch {
    throw new BackupError(`${archive} has no readable ${MANIFEST_FILE}: not a Frontdesk backup.`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join('.') || 'manifest'}: ${issue.message}` : 'unreadable';
    throw new BackupError(`${archive} has an invalid manifest (${where}).`);
  }
  if (parsed.data.version !== MANIFEST_VERSION) {
    throw new BackupError(
      `${archive} is a version ${parsed.data.version} backup; this Frontdesk reads version ${MANIFEST_VERSION}.`,
    );
  }
  return parsed.data;
}

/**
 * Reads the whole archive once without writing anything: it must decompress to the end, hold
 * only plain files and folders, and every file must match the manifest's size and sha256. So a
 * damaged or altered archive is refused before the data folder is touched.
 */
async function readArchive(archive: string): Promise<Manifest> {
  const found = new Map<string, Digest>();
  const refused: string[] = [];
  let manifestText: string | undefined;
  try {
    await list({
      file: archive,
      strict: true,
      onReadEntry: (entry) => {
        if (entry.type === 'Directory') return;
        if (entry.type !== 'File') {
          refused.push(entry.path);
          return;
        }
        const hash = createHash('sha256');
        const chunks: Buffer[] = [];
        let size = 0;
        entry.on('data', (chunk: Buffer) => {
          hash.update(chunk);
          size += chunk.length;
          if (entry.path === MANIFEST_FILE) chunks.push(chunk);
        });
        entry.on('end', () => {
          found.set(entry.path, { size, sha256: hash.digest('hex') });
          if (entry.path === MANIFEST_FILE) manifestText = Buffer.concat(chunks).toString('utf8');
        });
      },
    });
  } catch (error) {
    throw new BackupError(`${archive} is not a readable backup archive (${reason(error)}).`);
  }
  if (refused[0]) {
    throw new BackupError(`${archive} holds an entry that is not a plain file: ${refused[0]}.`);
  }
  const manifest = parseManifest(archive, manifestText);
  checkAgainstManifest(manifest, found);
  return manifest;
}

/** Unpacks a checked archive into `folder`, then checks what landed on disk once more. */
async function unpack(archive: string, folder: string, manifest: Manifest): Promise<void> {
  try {
    await extract({
      file: archive,
      cwd: folder,
      strict: true,
      // Files belong to whoever restores, whatever ids the archive recorded.
      preserveOwner: false,
      filter: (_path, entry) =>
        'type' in entry && (entry.type === 'File' || entry.type === 'Directory'),
    });
  } catch (error) {
    throw new BackupError(`Could not unpack ${archive} (${reason(error)}).`);
  }
  // The archive could have changed since it was read (or the disk failed us): check the copies.
  checkAgainstManifest(manifest, await digestFolder(folder));
}

export async function restoreBackup(options: RestoreOptions): Promise<Manifest> {
  const log = options.log ?? (() => undefined);
  const archive = resolve(options.archive);
  const root = resolve(options.dataDir);
  if (!existsSync(archive)) throw new BackupError(`No archive at ${archive}.`);
  await assertEmpty(root);
  log(`Checking ${archive} against its manifest…`);
  const manifest = await readArchive(archive);
  const existed = existsSync(root);
  const staging = join(root, STAGING);
  try {
    await mkdir(staging, { recursive: true, mode: 0o700 });
    await unpack(archive, staging, manifest);

    const dir = prepareDataDir(root);
    const dump = join(staging, DATABASE_FILE);
    if (options.databaseUrl) {
      await assertDatabaseEmpty(options.databaseUrl);
      log('Loading the database into DATABASE_URL (pg_restore)…');
      await loadDatabase(options.databaseUrl, dump, manifest.database.rows);
    } else {
      log('Starting PostgreSQL in the data folder to load the database (pg_restore)…');
      const postgres = await startLocalPostgres(dir);
      try {
        await loadDatabase(postgres.url, dump, manifest.database.rows);
      } finally {
        await postgres.stop();
      }
    }

    // The folders prepareDataDir made are empty: the archive's take their place. Uploads are made
    // owner-only again, as prepareDataDir keeps them; Janus takes over recordings as it starts.
    for (const folder of FILE_FOLDERS) {
      const from = join(staging, folder);
      if (!existsSync(from)) continue;
      await rmdir(dir[folder]);
      await rename(from, dir[folder]);
    }
    await chmod(dir.uploads, 0o700);
    // SECURITY: the secrets stay readable by their owner only, as loadOrCreateSecrets writes them.
    await chmod(join(staging, SECRETS_FILE), 0o600);
    await rename(join(staging, SECRETS_FILE), join(root, SECRETS_FILE));
    await rm(staging, { recursive: true, force: true });
    return manifest;
  } catch (error) {
    // Leave the folder as it was found (absent or empty), so the next attempt is not refused.
    if (existed) {
      for (const entry of await readdir(root)) {
        await rm(join(root, entry), { recursive: true, force: true });
      }
    } else {
      await rm(root, { recursive: true, force: true });
    }
    throw error;
  }
}
