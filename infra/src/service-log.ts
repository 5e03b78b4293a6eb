// A service's log file, kept from filling the disk: the supervisor reads each server's output
// and writes it through rotating-file-stream, which rotates by size in logrotate's way
// (`api.log` → `api.log.1.gz` … `api.log.<keep>.gz`, the oldest dropped).
import { chmodSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { createStream } from 'rotating-file-stream';

/** When a log file is rotated and how many rotated files are kept (docs/operations.md, "Logs"). */
export type LogRotation = {
  /** The file is rotated once it reaches this many bytes. */
  readonly maxBytes: number;
  /** Rotated files kept, gzipped; older ones are deleted. */
  readonly keep: number;
};

/** 10 MB a file, five rotated files kept: at most about 60 MB of text a service, less gzipped. */
export const DEFAULT_LOG_ROTATION: LogRotation = { maxBytes: 10 * 1024 * 1024, keep: 5 };

/** `10M`, `512K`, `1G` or a plain number of bytes, as `LOG_ROTATE_SIZE` is written. */
export function parseLogSize(text: string): number | undefined {
  const match = /^(\d+)([KMG]?)$/.exec(text.trim());
  if (!match) return undefined;
  const bytes = Number(match[1]) * 1024 ** ' KMG'.indexOf(match[2] || ' ');
  return bytes > 0 && Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** The output of one run of a service, on its way into its log file. */
export type ServiceLog = {
  /**
   * Resolves once everything the service wrote is in the file: when every process holding its
   * output is gone and the last write is done, or after `waitMs` (a process that escaped the
   * service's group may hold the output open for ever).
   */
  written(waitMs: number): Promise<void>;
};

/**
 * Appends `outputs` (a child's stdout and stderr) to `file`, rotated by `rotation`. SECURITY:
 * the file and its rotations are the owner's alone (logs name guests, calls and addresses), also
 * a file an older run left readable. A failing disk never stops the service: what it writes is
 * then dropped.
 */
export function writeServiceLog(
  file: string,
  outputs: readonly Readable[],
  rotation: LogRotation,
): ServiceLog {
  try {
    chmodSync(file, 0o600);
  } catch {
    // not there yet: created owner-only below
  }
  const name = basename(file);
  const log = createStream((index) => (index ? `${name}.${index}.gz` : name), {
    path: dirname(file),
    size: `${rotation.maxBytes}B`,
    rotate: rotation.keep,
    compress: 'gzip',
    mode: 0o600,
  });
  const done = new Promise<void>((resolve) => {
    log.once('finish', resolve);
    log.on('error', () => {
      // pipe() lets go of a destination that failed; the service must not block on a full pipe.
      for (const output of outputs) output.resume();
      resolve();
    });
  });
  let open = outputs.length;
  for (const output of outputs) {
    output.pipe(log, { end: false });
    output.once('close', () => {
      open -= 1;
      if (open === 0) log.end();
    });
  }
  return {
    written: (waitMs) => Promise.race([done, sleep(waitMs)]),
  };
}
