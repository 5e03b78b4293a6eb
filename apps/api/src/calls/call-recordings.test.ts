import { describe, expect, it } from 'vitest';
import { callRecordingParts } from './call-recordings.ts';

describe('callRecordingParts', () => {
  const callId = 'abcdefgh_12345678--c1';
  it('groups one call’s files by participant, the guest first, and ignores other calls', () => {
    const files = [
      `12-${callId}-staff-4-agent-1700000000100-audio-0.mjr`,
      `12-${callId}-staff-4-agent-1700000000100-video-1.mjr`,
      `12-${callId}-abcdefgh_12345678-guest-1700000000000-audio-0.mjr`,
      `12-${callId}-abcdefgh_12345678-guest-1700000000000-video-1.mjr`,
      `12-${callId}-abcdefgh_12345678-guest-1700000000000-part2-video-1.mjr`,
      `12-other--c2-x-guest-1-audio-0.mjr`,
      `5-${callId}-abcdefgh_12345678-guest-1-audio-0.mjr`,
      `12-${callId}.mp4`,
    ];
    expect(callRecordingParts(files, 12, callId)).toEqual([
      [
        `12-${callId}-abcdefgh_12345678-guest-1700000000000-audio-0.mjr`,
        `12-${callId}-abcdefgh_12345678-guest-1700000000000-part2-video-1.mjr`,
        `12-${callId}-abcdefgh_12345678-guest-1700000000000-video-1.mjr`,
      ],
      [
        `12-${callId}-staff-4-agent-1700000000100-audio-0.mjr`,
        `12-${callId}-staff-4-agent-1700000000100-video-1.mjr`,
      ],
    ]);
  });

  it('finds nothing for a call that was not recorded', () => {
    expect(callRecordingParts(['12-x--y-u-guest-1-audio-0.mjr'], 12, callId)).toEqual([]);
  });
});
