import { existsSync } from 'node:fs';
import { readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { mergeCallRecording } from '@frontdesk/media/server';

/** Janus needs a moment after the room is destroyed to close its recording files. */
const SETTLE_MS = 1000;

/**
 * What Janus names a recording of a call room (decision 0008): it records the room itself and
 * builds `videoroom-<room>-user-<publisher id>-<time>-<kind>-<index>.mjr`, where the room is
 * the call id and the publisher id (`<role>-<32 hex>`) is the API's gate's, never a browser's.
 */
const JANUS_RECORDING = /^(guest|agent)-[0-9a-f]{32}-\d+-(audio|video)-\d+\.mjr$/;

/**
 * The .mjr files of one call, per role, the guest's first (its tile comes first). A participant
 * that joined again (a recovery, a restarted Janus) has a new publisher id and later files:
 * they stay on its role's tile, each placed at its own time by the merge.
 */
export function callRecordingParts(files: readonly string[], callId: string): string[][] {
  const prefix = `videoroom-${callId}-user-`;
  const byRole = { guest: [] as string[], agent: [] as string[] };
  for (const name of [...files].sort()) {
    if (!name.startsWith(prefix)) continue;
    const role = JANUS_RECORDING.exec(name.slice(prefix.length))?.[1];
    if (role === 'guest' || role === 'agent') byRole[role].push(name);
  }
  return [byRole.guest, byRole.agent].filter((names) => names.length > 0);
}

/**
 * One playable file per call (issue 5): after a recorded call ends, its participants' recordings
 * are merged into `<companyId>-<callId>.mp4` beside them. Runs in the background; a failure is
 * logged and leaves the raw recordings in place.
 */
export class CallRecordings {
  private pendingMerges = 0;

  constructor(
    private readonly folder: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Merges asked for and not finished (settling or running), for `/metrics`. */
  get pending(): number {
    return this.pendingMerges;
  }

  /** Where a call's merged recording is, once it exists. */
  fileOf(companyId: number, callId: string): string | null {
    const file = join(this.folder, `${companyId}-${callId}.mp4`);
    return existsSync(file) ? file : null;
  }

  mergeLater(companyId: number, callId: string): void {
    this.pendingMerges += 1;
    setTimeout(() => {
      // `merge` never rejects: it logs its own failures.
      void this.merge(companyId, callId).finally(() => {
        this.pendingMerges -= 1;
      });
    }, SETTLE_MS).unref();
  }

  private async merge(companyId: number, callId: string): Promise<void> {
    try {
      const files = existsSync(this.folder) ? await readdir(this.folder) : [];
      const participants = callRecordingParts(files, callId).map((names) =>
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
