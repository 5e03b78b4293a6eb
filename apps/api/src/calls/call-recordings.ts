import { existsSync } from 'node:fs';
import { readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { mergeCallRecording } from '@frontdesk/media/server';

/** Janus needs a moment after the room is destroyed to close its recording files. */
const SETTLE_MS = 1000;

/**
 * The .mjr files of one call, per participant: names start `<companyId>-<callId>-` (spec §7,
 * `recordingFilename`) and carry the role, so the guest's tile comes first. Later parts after a
 * recovery (`-partN`) stay with their participant.
 */
export function callRecordingParts(
  files: readonly string[],
  companyId: number,
  callId: string,
): string[][] {
  const prefix = `${companyId}-${callId}-`;
  const ours = files.filter((name) => name.startsWith(prefix) && name.endsWith('.mjr')).sort();
  const byParticipant = new Map<string, string[]>();
  for (const name of ours) {
    // `<username>-<role>-<timestamp>` up to the media suffix Janus adds (`-audio-0.mjr`, …).
    const participant = /^(.+-(guest|agent))-\d+/.exec(name.slice(prefix.length))?.[1];
    if (!participant) continue;
    byParticipant.set(participant, [...(byParticipant.get(participant) ?? []), name]);
  }
  return [...byParticipant.entries()]
    .sort(([a], [b]) => Number(b.endsWith('-guest')) - Number(a.endsWith('-guest')))
    .map(([, names]) => names);
}

/**
 * One playable file per call (issue 5): after a recorded call ends, its participants' recordings
 * are merged into `<companyId>-<callId>.mp4` beside them. Runs in the background; a failure is
 * logged and leaves the raw recordings in place.
 */
export class CallRecordings {
  constructor(
    private readonly folder: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Where a call's merged recording is, once it exists. */
  fileOf(companyId: number, callId: string): string | null {
    const file = join(this.folder, `${companyId}-${callId}.mp4`);
    return existsSync(file) ? file : null;
  }

  mergeLater(companyId: number, callId: string): void {
    setTimeout(() => void this.merge(companyId, callId), SETTLE_MS).unref();
  }

  private async merge(companyId: number, callId: string): Promise<void> {
    try {
      const files = existsSync(this.folder) ? await readdir(this.folder) : [];
      const participants = callRecordingParts(files, companyId, callId).map((names) =>
        names.map((name) => join(this.folder, name)),
      );
      if (participants.length === 0) return;
      // Written under another name and renamed when whole: a half-written film is never served.
      const partial = join(this.folder, `${companyId}-${callId}.merging.mp4`);
      const { durationSeconds } = await mergeCallRecording({ participants, output: partial });
      await rename(partial, join(this.folder, `${companyId}-${callId}.mp4`));
      this.log.info({ callId, durationSeconds }, 'call recording merged');
    } catch (error) {
      this.log.error({ err: error, callId }, 'call recording could not be merged');
    }
  }
}
