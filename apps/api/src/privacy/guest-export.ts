import { open } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import type { FileStorage } from '../uploads/file-storage.ts';
import type { GuestHoldings } from './guest-data.ts';

/** Where the files of a guest are kept (the data folder's `uploads/` and `recordings/`). */
export type GuestFileFolders = { fileStorage: FileStorage; recordingsDir: string };

/**
 * A file its row names that was gone when its turn came (retention deleted it meanwhile): the
 * row's table and key, and the entry it would have been.
 */
export type MissingFile = { entry: string } & (
  { table: 'uploads'; id: string } | { table: 'call_recordings'; call_report_id: number }
);

type ArchivedFile = MissingFile & { open: () => Promise<Readable> };

/**
 * A name that is one plain entry of the archive whatever the guest called its file: no folders,
 * no `..`, no control characters, at most 120 characters.
 */
export function archiveEntryName(name: string): string {
  const plain = basename(name.replaceAll('\\', '/'))
    .replace(/[\p{Cc}/]/gu, '_')
    .replace(/^\.+/, '_')
    .slice(0, 120);
  return plain === '' ? 'file' : plain;
}

const isGone = (error: unknown): boolean =>
  error instanceof Error && 'code' in error && error.code === 'ENOENT';

/**
 * The guest's archive (decision 0032), streamed as it is written: `files/<upload id>-<name>` for
 * every file it sent or its agents sent in its calls, `recordings/<file>` for every merged
 * recording of its calls, then `data.json` with every row held about the guest by table and
 * `missingFiles`, the files the rows name that were gone when their turn came. Files are opened
 * one at a time, when their turn comes, so the archive never sits in memory; an opened file
 * stays readable if it is deleted while it is read.
 */
export function guestArchive(holdings: GuestHoldings, folders: GuestFileFolders): Readable {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  zip.on('error', (error: Error) => output.destroy(error));
  addFiles(zip, output, filesOf(holdings, folders)).then(
    (missingFiles) => {
      const data = { ...holdings, missingFiles };
      zip.addBuffer(Buffer.from(`${JSON.stringify(data, null, 2)}\n`), 'data.json');
      zip.end();
    },
    (error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return output;
}

function filesOf(holdings: GuestHoldings, folders: GuestFileFolders): ArchivedFile[] {
  const uploads = holdings.uploads.map((upload) => ({
    table: 'uploads' as const,
    id: upload.id,
    entry: `files/${upload.id}-${archiveEntryName(upload.original_name)}`,
    open: () => folders.fileStorage.open(upload.id),
  }));
  const recordings = holdings.call_recordings.flatMap(({ call_report_id, file_name }) =>
    file_name === null
      ? []
      : [
          {
            table: 'call_recordings' as const,
            call_report_id,
            entry: `recordings/${archiveEntryName(file_name)}`,
            open: async () =>
              (await open(join(folders.recordingsDir, basename(file_name)))).createReadStream(),
          },
        ],
  );
  return [...uploads, ...recordings];
}

/** Each file in turn, the next opened once the archive has read the last; answers those gone. */
async function addFiles(
  zip: ZipFile,
  output: Readable,
  files: readonly ArchivedFile[],
): Promise<MissingFile[]> {
  const missing: MissingFile[] = [];
  for (const { open: openFile, ...file } of files) {
    let stream: Readable;
    try {
      stream = await openFile();
    } catch (error) {
      if (!isGone(error)) throw error;
      missing.push(file);
      continue;
    }
    // A reader that went away stops the archive: the open file is closed with it.
    if (output.destroyed) {
      stream.destroy();
      throw new Error('The archive was closed before it was complete.');
    }
    const stop = () => stream.destroy();
    output.once('close', stop);
    zip.addReadStream(stream, file.entry);
    try {
      await finished(stream);
    } finally {
      output.off('close', stop);
    }
  }
  return missing;
}
