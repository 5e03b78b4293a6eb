import { describe, expect, it } from 'vitest';
import { recordingFilename, setupComplete } from '@frontdesk/protocol';

describe('protocol media helpers', () => {
  it('builds the spec §7 recording name and keeps paths out of it', () => {
    expect(
      recordingFilename({
        companyId: 5,
        callId: 'fp12345678_abcdefgh--x1',
        username: 'fp12345678_abcdefgh',
        role: 'guest',
        timestamp: 1_700_000_000_000,
      }),
    ).toBe('5-fp12345678_abcdefgh--x1-fp12345678_abcdefgh-guest-1700000000000');
    expect(
      recordingFilename({
        companyId: '../5',
        callId: 'a/b',
        username: 'u',
        role: 'agent',
        timestamp: 1,
      }),
    ).toBe('___5-a_b-u-agent-1');
  });

  it('needs every spec §4 stage to have succeeded', () => {
    const all = {
      createRoom: true,
      joinRoom: true,
      createOffer: true,
      createAnswer: true,
      localStream: true,
      remoteStream: true,
    };
    expect(setupComplete(all)).toBe(true);
    expect(setupComplete({ ...all, createAnswer: false })).toBe(false);
    expect(setupComplete({ ...all, remoteStream: undefined })).toBe(false);
  });
});
