// Server side only: turns a call's Janus recordings (.mjr, one per stream and participant)
// into one playable file, with janus-pp-rec (Debian's janus-tools) and ffmpeg.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Each participant's tile in the merged picture (the fake and most real cameras are 4:3). */
const TILE = { width: 640, height: 480 } as const;
const FRAME_RATE = 20;

interface Track {
  readonly kind: 'audio' | 'video';
  /** The converted file: .webm (video) or .opus (audio). */
  readonly file: string;
  /** Seconds from the call's first recorded packet to this track's first packet. */
  readonly offset: number;
  readonly duration: number;
  /** The participant's tile, counted from the left. */
  readonly slot: number;
}

/** `janus-pp-rec -j`: `t` a/v, `c` codec, `u` wall-clock µs of the first written packet. */
async function header(mjr: string): Promise<{ kind: 'audio' | 'video'; startUs: number }> {
  const { stdout } = await run('janus-pp-rec', ['-j', mjr]);
  const parsed = JSON.parse(stdout) as { t?: string; u?: number };
  if ((parsed.t !== 'a' && parsed.t !== 'v') || typeof parsed.u !== 'number') {
    throw new Error(`${mjr}: not an audio or video recording`);
  }
  return { kind: parsed.t === 'a' ? 'audio' : 'video', startUs: parsed.u };
}

async function duration(file: string): Promise<number> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'default=nw=1:nk=1',
    file,
  ]);
  return Number(stdout.trim());
}

/** The ffmpeg filter graph: tiles side by side on a black canvas, audio delayed and mixed. */
function filterGraph(tracks: readonly Track[], slots: number, length: number): string {
  const canvas = `color=c=black:s=${TILE.width * slots}x${TILE.height}:r=${FRAME_RATE}:d=${length.toFixed(3)}`;
  const filters = [`${canvas}[base0]`];
  let base = 'base0';
  const audio: string[] = [];
  tracks.forEach((track, input) => {
    if (track.kind === 'video') {
      // Late joiners start at their offset; early leavers leave the tile black (eof_action).
      filters.push(
        `[${input}:v]scale=${TILE.width}:${TILE.height}:force_original_aspect_ratio=decrease,` +
          `pad=${TILE.width}:${TILE.height}:(ow-iw)/2:(oh-ih)/2,` +
          `setpts=PTS-STARTPTS+${track.offset.toFixed(3)}/TB[v${input}]`,
        `[${base}][v${input}]overlay=x=${TILE.width * track.slot}:y=0:eof_action=pass[base${input + 1}]`,
      );
      base = `base${input + 1}`;
    } else {
      filters.push(`[${input}:a]adelay=${Math.round(track.offset * 1000)}:all=1[a${input}]`);
      audio.push(`[a${input}]`);
    }
  });
  filters.push(`[${base}]null[video]`);
  if (audio.length > 0) {
    filters.push(
      `${audio.join('')}amix=inputs=${audio.length}:duration=longest:normalize=0,alimiter[audio]`,
    );
  }
  return filters.join(';');
}

/**
 * Merges a call's recordings into one MP4 (H.264 + AAC, plays everywhere): each participant
 * a tile side by side, every track placed at the time its first packet was written (audio and
 * video of one participant start ~50–70 ms apart; parts after a recovery start later).
 * `participants` lists each participant's .mjr files (audio, video, and any later parts).
 */
export async function mergeCallRecording(options: {
  participants: readonly (readonly string[])[];
  output: string;
}): Promise<{ output: string; durationSeconds: number }> {
  const work = await mkdtemp(join(tmpdir(), 'frontdesk-merge-'));
  try {
    const recorded = await Promise.all(
      options.participants.flatMap((files, slot) =>
        files.map(async (mjr) => {
          const { kind, startUs } = await header(mjr);
          const file = join(work, `${basename(mjr, '.mjr')}.${kind === 'audio' ? 'opus' : 'webm'}`);
          await run('janus-pp-rec', [mjr, file]);
          return { kind, file, startUs, slot, duration: await duration(file) };
        }),
      ),
    );
    if (!recorded.some((track) => track.kind === 'video')) {
      throw new Error('no video recording to merge');
    }
    const firstUs = Math.min(...recorded.map((track) => track.startUs));
    const tracks: Track[] = recorded.map(({ startUs, ...track }) => ({
      ...track,
      offset: (startUs - firstUs) / 1e6,
    }));
    const length = Math.max(...tracks.map((track) => track.offset + track.duration));
    const hasAudio = tracks.some((track) => track.kind === 'audio');
    await run('ffmpeg', [
      '-v',
      'error',
      '-y',
      ...tracks.flatMap((track) => ['-i', track.file]),
      '-filter_complex',
      filterGraph(tracks, options.participants.length, length),
      '-map',
      '[video]',
      ...(hasAudio ? ['-map', '[audio]', '-c:a', 'aac', '-b:a', '96k'] : []),
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '28',
      '-pix_fmt',
      'yuv420p',
      '-movflags',
      '+faststart',
      options.output,
    ]);
    return { output: options.output, durationSeconds: await duration(options.output) };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
