import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { recordingFilename } from '@frontdesk/protocol';
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

test('a recorded call gives playable files for each side and one merged file', async ({
  call,
  janus,
}) => {
  const { guest, agent } = call;
  const name = (username: string, role: 'guest' | 'agent') =>
    recordingFilename({
      companyId: 5,
      callId: `${call.room}--x1`,
      username,
      role,
      timestamp: Date.now(),
    });
  const files = { guest: name('guest', 'guest'), agent: name('agent', 'agent') };
  await call.start({ callType: 'video' }, (who) => ({
    recordingFilename: who === guest ? files.guest : files.agent,
  }));
  // Some seconds of media on the wire, measured by what the agent received.
  await expect
    .poll(async () => (await agent.inbound()).video?.frames ?? 0, { timeout: 15_000 })
    .toBeGreaterThan(60);
  // Leaving closes the recorders (spec §4: ending the call leaves the room).
  await guest.page.evaluate(() => window.harness.close());
  await agent.page.evaluate(() => window.harness.close());

  const written = await readdir(janus.recordingsDir);
  for (const [role, base] of Object.entries(files)) {
    const mjr = written.filter((file) => file.startsWith(`${base}-`) && file.endsWith('.mjr'));
    expect(mjr.sort(), `${role} recordings`).toEqual([
      `${base}-audio-0.mjr`,
      `${base}-video-1.mjr`,
    ]);
    const audio = join(janus.recordingsDir, `${base}.opus`);
    const video = join(janus.recordingsDir, `${base}.webm`);
    await run('janus-pp-rec', [join(janus.recordingsDir, `${base}-audio-0.mjr`), audio]);
    await run('janus-pp-rec', [join(janus.recordingsDir, `${base}-video-1.mjr`), video]);

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
    console.info(`${role} recording: audio ${seconds.audio} s, video ${seconds.video} s`);
    expect(seconds.audio).toBeGreaterThan(2);
    expect(seconds.video).toBeGreaterThan(2);
  }

  // One file for the call: both participants side by side, both voices mixed.
  const mjrOf = (base: string) =>
    written.filter((f) => f.startsWith(`${base}-`)).map((f) => join(janus.recordingsDir, f));
  const startedAt = Date.now();
  const merged = await mergeCallRecording({
    participants: [mjrOf(files.guest), mjrOf(files.agent)],
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
