import type { IceServer, SignalChannel } from '@frontdesk/protocol';
import type { MediaSessionOptions } from '../types.ts';

/**
 * A p2p call's media session: one RTCPeerConnection straight to the other party's browser.
 * What it shares with the Janus session's options means the same; `retry` covers asking for
 * the ICE servers, `reconnect` the ICE restarts after the path was lost.
 */
export interface P2pSessionOptions extends Pick<
  MediaSessionOptions,
  'display' | 'callType' | 'video' | 'audio' | 'retry' | 'reconnect' | 'qualityIntervalMs' | 'debug'
> {
  readonly callId: string;
  /** The agent offers, the guest answers. */
  readonly role: 'offerer' | 'answerer';
  /** Where the signals travel (the chat session). */
  readonly signalling: SignalChannel;
  /** STUN/TURN for the peer connection (the API's POST /calls/:callId/ice), asked at each (re)start. */
  readonly iceServers: () => Promise<IceServer[]>;
}

/** The one feed of a p2p call: the peer's, under a name that stays across its reconnections. */
export const P2P_FEED_ID = 'p2p';
