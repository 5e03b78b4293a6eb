import type { CallMediaStatus, CallPeer } from '@frontdesk/protocol';
import type { MediaState } from './types.ts';

export const INITIAL_CALL_STATUS: CallMediaStatus = {
  peerCall: 'Paused',
  peerVideo: 'Paused',
  onHoldCount: 0,
  peers: [],
  mutedAudioJIDs: [],
  mutedVideoJIDs: [],
  streamsReady: { local: false, remote: false },
};

/** Who a Janus display (a username) is in chat; unknown peers keep their username as JID. */
export type PeerDirectory = (
  display: string,
) => { peerJID: string; profileImageUrl: string | null } | undefined;

/**
 * The next spec §3 call status after a media state change. spec §4: first remote media makes
 * the call Resumed; the peer toggling to Paused (it left the room to hold) raises the hold
 * count and clears the peers and muted lists. Our own reconnecting is not a hold.
 */
export function nextCallStatus(
  previous: CallMediaStatus,
  media: MediaState,
  directory: PeerDirectory,
): CallMediaStatus {
  const held =
    previous.peerCall === 'Resumed' && media.peerCall === 'Paused' && media.status === 'connected';
  const peers: CallPeer[] = media.feeds.map((feed) => {
    const known = directory(feed.display);
    return {
      peerJID: known?.peerJID ?? feed.display,
      janusId: feed.janusId,
      profileImageUrl: known?.profileImageUrl ?? null,
      username: feed.display,
    };
  });
  const jidOf = (janusId: string) => peers.find((peer) => peer.janusId === janusId)?.peerJID ?? '';
  return {
    peerCall: media.peerCall,
    peerVideo: media.peerVideo,
    onHoldCount: previous.onHoldCount + (held ? 1 : 0),
    peers,
    mutedAudioJIDs: media.feeds.filter((f) => f.audioMuted).map((f) => jidOf(f.janusId)),
    mutedVideoJIDs: media.feeds
      .filter((f) => f.videoMuted && !f.onlyAudio)
      .map((f) => jidOf(f.janusId)),
    streamsReady: media.streamsReady,
  };
}
