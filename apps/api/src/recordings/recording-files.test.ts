import { describe, expect, it } from 'vitest';
import { callRecordingParts } from './recording-files.ts';

describe('callRecordingParts', () => {
  const callId = 'gabcdefghijklmnopqrstuvwxy--c1';
  const guest = `guest-${'a'.repeat(32)}`;
  const guestAgain = `guest-${'b'.repeat(32)}`;
  const agent = `agent-${'c'.repeat(32)}`;
  const file = (id: string, time: number, kind: string) =>
    `videoroom-${callId}-user-${id}-${time}-${kind}.mjr`;

  it('groups one call’s files by role, the guest first, and ignores other calls', () => {
    const files = [
      file(agent, 1700000000100, 'audio-0'),
      file(agent, 1700000000100, 'video-1'),
      file(guest, 1700000000000, 'audio-0'),
      file(guest, 1700000000000, 'video-1'),
      // The guest joined again after a recovery: a new publisher id, on the same tile.
      file(guestAgain, 1700000005000, 'video-1'),
      `videoroom-other--c2-user-${guest}-1-audio-0.mjr`,
      `videoroom-${callId}-user-${guest}-x-audio-0.mjr`,
      `videoroom-${callId}-user-0d8e1f7c-6a7b-4f4e-9c1a-2b3c4d5e6f70-1-audio-0.mjr`,
      `12-${callId}.mp4`,
    ];
    expect(callRecordingParts(files, callId)).toEqual([
      [
        file(guest, 1700000000000, 'audio-0'),
        file(guest, 1700000000000, 'video-1'),
        file(guestAgain, 1700000005000, 'video-1'),
      ],
      [file(agent, 1700000000100, 'audio-0'), file(agent, 1700000000100, 'video-1')],
    ]);
  });

  it('finds nothing for a call that was not recorded', () => {
    expect(callRecordingParts([`videoroom-x--y-user-${guest}-1-audio-0.mjr`], callId)).toEqual([]);
  });
});
