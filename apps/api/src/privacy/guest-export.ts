import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { FileStorage } from '../uploads/file-storage.ts';
import type { GuestHoldings } from './guest-data.ts';

/** Where the files of a guest are kept (the data folder's `uploads/` and `recordings/`). */
export type GuestFileFolders = { fileStorage: FileStorage; recordingsDir: string };

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

/**
 * The guest's archive (decision 0032), streamed as it is written: `data.json` with every row
 * held about the guest by table, `files/<upload id>-<name>` for every file it sent,
 * `recordings/<file>` for every merged recording of its calls. Files are read one at a time,
 * when their turn comes, so the archive never sits in memory.
 */
export function guestArchive(holdings: GuestHoldings, folders: GuestFileFolders): Readable {
  const zip = new ZipFile();
  zip.addBuffer(Buffer.from(`${JSON.stringify(holdings, null, 2)}\n`), 'data.json');
  for (const upload of holdings.uploads) {
    zip.addReadStreamLazy(
      `files/${upload.id}-${archiveEntryName(upload.original_name)}`,
      (done) => {
        folders.fileStorage.open(upload.id).then(
          (stream) => done(null, stream),
          (error: unknown) => done(error, undefined as never),
        );
      },
    );
  }
  for (const recording of holdings.call_recordings) {
    if (recording.file_name === null) continue;
    const path = join(folders.recordingsDir, basename(recording.file_name));
    // A film the retention run deleted between the read and now is simply not in the archive.
    if (existsSync(path)) zip.addFile(path, `recordings/${archiveEntryName(recording.file_name)}`);
  }
  zip.end();
  return zip.outputStream as Readable;
}
