// What a backup archive holds and how it is checked: the manifest (first entry of the archive)
// lists every file with its size and sha256, so a restore can refuse a damaged or altered archive
// before it touches a data folder.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';

export const MANIFEST_FILE = 'manifest.json';
export const DATABASE_FILE = 'database.dump';
export const SECRETS_FILE = 'secrets.json';
/** The data folder's sub-folders a backup carries, file by file. */
export const FILE_FOLDERS = ['uploads', 'recordings'] as const;
export const MANIFEST_VERSION = 1;

/** A failure with a message meant for the operator as it is (no stack trace needed). */
export class BackupError extends Error {}

// Only the names a backup writes: a path in the manifest can never climb out of the folder it is
// restored into, nor name anything but the database dump, the secrets and the two file folders.
const archivePath = z
  .string()
  .refine(
    (path) =>
      !path.split('/').some((part) => part === '' || part === '.' || part === '..') &&
      (path === DATABASE_FILE ||
        path === SECRETS_FILE ||
        FILE_FOLDERS.some((folder) => path.startsWith(`${folder}/`))),
    'is not a path a backup writes',
  );

export const manifestSchema = z.object({
  format: z.literal('frontdesk-backup'),
  version: z.number().int(),
  createdAt: z.iso.datetime(),
  database: z.object({
    /** `local`: the project's own cluster in the data folder; `external`: `DATABASE_URL`. */
    source: z.enum(['local', 'external']),
    serverVersion: z.string(),
    /** Rows per table (`schema.table`), counted in the snapshot the dump was taken from. */
    rows: z.record(z.string(), z.number().int().nonnegative()),
  }),
  counts: z.object({
    uploads: z.number().int().nonnegative(),
    recordings: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
  }),
  files: z
    .array(
      z.object({
        path: archivePath,
        size: z.number().int().nonnegative(),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
      }),
    )
    .refine((files) => new Set(files.map((f) => f.path)).size === files.length, 'repeat a path')
    .refine(
      (files) => [DATABASE_FILE, SECRETS_FILE].every((name) => files.some((f) => f.path === name)),
      `must list ${DATABASE_FILE} and ${SECRETS_FILE}`,
    ),
});
export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestFile = Manifest['files'][number];

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/** Every regular file below `root` (depth first), as paths relative to `root` with `/`. */
export async function listFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(
      (error: NodeJS.ErrnoException) => {
        // A folder removed while we walk (a partial upload cleaned up) has nothing to list.
        if (error.code === 'ENOENT') return [];
        throw error;
      },
    );
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) found.push(relative(root, path).split(sep).join('/'));
    }
  };
  await walk(root);
  return found;
}

/** What a file holds, by size and hash: read from an archive's stream or from a disk. */
export type Digest = { size: number; sha256: string };

export async function digestFile(path: string): Promise<Digest> {
  return { size: (await lstat(path)).size, sha256: await sha256File(path) };
}

/** The digest of every regular file below `folder`, keyed by its path in an archive. */
export async function digestFolder(folder: string): Promise<Map<string, Digest>> {
  const found = new Map<string, Digest>();
  for (const path of await listFiles(folder)) found.set(path, await digestFile(join(folder, path)));
  return found;
}

/**
 * Checks what an archive holds (`found`, the manifest itself aside) against its manifest: each
 * listed file present with its size and hash, nothing else. Throws a {@link BackupError} naming
 * the first difference.
 */
export function checkAgainstManifest(manifest: Manifest, found: Map<string, Digest>): void {
  const listed = new Set(manifest.files.map((file) => file.path));
  const extra = [...found.keys()].find((path) => path !== MANIFEST_FILE && !listed.has(path));
  if (extra) throw new BackupError(`The archive holds ${extra}, which its manifest does not list.`);
  for (const file of manifest.files) {
    const digest = found.get(file.path);
    if (!digest) throw new BackupError(`The archive lacks ${file.path}, which its manifest lists.`);
    if (digest.size !== file.size || digest.sha256 !== file.sha256) {
      throw new BackupError(
        `${file.path} in the archive does not match its manifest (size or sha256): the archive is damaged or was altered.`,
      );
    }
  }
}
