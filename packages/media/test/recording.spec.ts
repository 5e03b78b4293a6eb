import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { mergeCallRecording } from '../src/server/recordings.ts';
import { expect, test } from './fixtures.ts';

const run = promisify(execFile);

interface Probe {
  streams: { codec_name: string; codec_type: string; width?: number; height?: number }[];
  format: { duration: string };
}

async function probe(file: string): Promise<Probe> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_streams',
    '-show_format',
    '-of',
    'json',
    file,
  ]);
  return JSON.parse(stdout) as Probe;
}

// The company records calls: Janus records the room itself (decision 0008).
test.use({ recorded: true });

test('a recorded room gives playable files for each side, named by Janus, and one merged file', async ({
  call,
  janus,
}) => {
  const { guest, agent } = call;
  await call.start({ callType: 'video' });
  // Some seconds of media on the wire, measured by what the agent received.
  await expect
    .poll(async () => (await agent.inbound()).video?.frames ?? 0, { timeout: 15_000 })
    .toBeGreaterThan(60);
  // Leaving closes the recorders (spec §4: ending the call leaves the room).
  await guest.page.evaluate(() => window.harness.close());
  await agent.page.evaluate(() => window.harness.close());

  // Janus's own names: `videoroom-<room>-user-<publisher id>-<time>-<kind>-<index>.mjr`.
  const written = (await readdir(janus.recordingsDir)).filter((file) => file.endsWith('.mjr'));
  const prefix = `videoroom-${call.room}-user-`;
  const byPublisher = new Map<string, string[]>();
  for (const file of written.sort()) {
    expect(file.startsWith(prefix), file).toBe(true);
    const match = /^(.+)-\d+-(audio-0|video-1)\.mjr$/.exec(file.slice(prefix.length));
    expect(match, file).not.toBeNull();
    const publisher = match?.[1] ?? '';
    byPublisher.set(publisher, [...(byPublisher.get(publisher) ?? []), file]);
  }
  expect(byPublisher.size).toBe(2);
  for (const [publisher, files] of byPublisher) {
    const [audioMjr, videoMjr] = files.map((file) => join(janus.recordingsDir, file));
    expect(files.map((file) => /(audio-0|video-1)\.mjr$/.exec(file)?.[1])).toEqual([
      'audio-0',
      'video-1',
    ]);
    const audio = join(janus.recordingsDir, `${publisher}.opus`);
    const video = join(janus.recordingsDir, `${publisher}.webm`);
    await run('janus-pp-rec', [String(audioMjr), audio]);
    await run('janus-pp-rec', [String(videoMjr), video]);

    const sound = await probe(audio);
    expect(sound.streams).toEqual([
      expect.objectContaining({ codec_type: 'audio', codec_name: 'opus' }),
    ]);
    const picture = await probe(video);
    expect(picture.streams).toEqual([
      expect.objectContaining({ codec_type: 'video', codec_name: 'vp8', width: 640, height: 480 }),
    ]);
    // Decoding the whole file proves it plays, not just that it has a header.
    await run('ffmpeg', ['-v', 'error', '-xerror', '-i', video, '-f', 'null', '-']);
    const seconds = {
      audio: Number(sound.format.duration),
      video: Number(picture.format.duration),
    };
    console.info(`${publisher} recording: audio ${seconds.audio} s, video ${seconds.video} s`);
    expect(seconds.audio).toBeGreaterThan(2);
    expect(seconds.video).toBeGreaterThan(2);
  }

  // One file for the call: both participants side by side, both voices mixed.
  const startedAt = Date.now();
  const merged = await mergeCallRecording({
    participants: [...byPublisher.values()].map((files) =>
      files.map((file) => join(janus.recordingsDir, file)),
    ),
    output: join(janus.recordingsDir, `${call.room}.mp4`),
  });
  const mix = await probe(merged.output);
  expect(mix.streams).toEqual([
    expect.objectContaining({ codec_type: 'video', codec_name: 'h264', width: 1280, height: 480 }),
    expect.objectContaining({ codec_type: 'audio', codec_name: 'aac' }),
  ]);
  expect(merged.durationSeconds).toBeGreaterThan(2);
  await run('ffmpeg', ['-v', 'error', '-xerror', '-i', merged.output, '-f', 'null', '-']);
  console.info(
    `merged recording: ${merged.durationSeconds} s, made in ${Date.now() - startedAt} ms`,
  );
});
