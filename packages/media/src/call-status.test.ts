import { describe, expect, it } from 'vitest';
import type { RemoteFeed } from '@frontdesk/protocol';
import { INITIAL_CALL_STATUS, nextCallStatus } from './call-status.ts';
import type { MediaState } from './types.ts';

const media = (patch: Partial<MediaState>): MediaState => ({
  status: 'connected',
  endReason: null,
  error: null,
  stages: {},
  feeds: [],
  local: { audioMuted: false, videoMuted: false, onHold: false },
  streamsReady: { local: true, remote: false },
  peerCall: 'Paused',
  peerVideo: 'Paused',
  quality: { send: null, receive: null },
  reconnects: 0,
  ...patch,
});
const agentFeed = (patch: Partial<RemoteFeed> = {}): RemoteFeed => ({
  janusId: 'j1',
  display: 'agent7',
  onlyAudio: false,
  audioMuted: false,
  videoMuted: false,
  ...patch,
});
const directory = (display: string) =>
  display === 'agent7'
    ? { peerJID: 'agent7@frontdesk.localhost', profileImageUrl: '/a.png' }
    : undefined;

describe('nextCallStatus (spec §3, §4)', () => {
  const inCall = media({
    feeds: [agentFeed()],
    peerCall: 'Resumed',
    peerVideo: 'Resumed',
    streamsReady: { local: true, remote: true },
  });

  it('records the peer with its chat identity once its media arrives', () => {
    expect(nextCallStatus(INITIAL_CALL_STATUS, inCall, directory)).toEqual({
      peerCall: 'Resumed',
      peerVideo: 'Resumed',
      onHoldCount: 0,
      peers: [
        {
          peerJID: 'agent7@frontdesk.localhost',
          janusId: 'j1',
          profileImageUrl: '/a.png',
          username: 'agent7',
        },
      ],
      mutedAudioJIDs: [],
      mutedVideoJIDs: [],
      streamsReady: { local: true, remote: true },
    });
  });

  it('lists muted peers by JID; an audio-only peer is not "video muted"', () => {
    const status = nextCallStatus(
      INITIAL_CALL_STATUS,
      media({
        feeds: [
          agentFeed({ audioMuted: true }),
          agentFeed({ janusId: 'j2', display: 'x', onlyAudio: true, videoMuted: true }),
        ],
        peerCall: 'Resumed',
      }),
      directory,
    );
    expect(status.mutedAudioJIDs).toEqual(['agent7@frontdesk.localhost']);
    expect(status.mutedVideoJIDs).toEqual([]);
    expect(status.peers[1]).toMatchObject({ peerJID: 'x', profileImageUrl: null });
  });

  it('counts a hold when the peer goes Paused, and clears peers and muted lists', () => {
    const resumed = nextCallStatus(INITIAL_CALL_STATUS, inCall, directory);
    const held = nextCallStatus(resumed, media({}), directory);
    expect(held).toMatchObject({
      peerCall: 'Paused',
      onHoldCount: 1,
      peers: [],
      mutedAudioJIDs: [],
    });
    const again = nextCallStatus(nextCallStatus(held, inCall, directory), media({}), directory);
    expect(again.onHoldCount).toBe(2);
  });

  it('does not count our own reconnecting as a hold', () => {
    const resumed = nextCallStatus(INITIAL_CALL_STATUS, inCall, directory);
    expect(nextCallStatus(resumed, media({ status: 'reconnecting' }), directory).onHoldCount).toBe(
      0,
    );
  });
});
