import type {
  ConnectionStatus,
  LinkQuality,
  MediaCallType,
  MediaSetupStage,
  MediaSetupStages,
  PeerCallState,
  RemoteFeed,
  RoomAccess,
  SessionEvents,
  StreamsReady,
} from '@frontdesk/protocol';
import type { MediaError, MediaErrorCode } from './errors.ts';
import type { RetryPolicy } from './retry.ts';
import type { AudioOptions, VideoOptions } from './tracks.ts';

// The public shapes of a media session: its options, its plain state and its events. index.ts
// exports all of this file, so only public types belong here.

export interface MediaSessionOptions {
  /** Janus URL(s): `ws(s)://…` or `http(s)://…/janus` (spec §5: required). */
  readonly server: string | string[];
  /** A fresh Janus token from the API; called again whenever the session is re-created. */
  readonly token: () => Promise<string>;
  /**
   * spec §4 stage `createRoom`: asks the API for the call's room (creating it if needed): its
   * pin and this participant's room token (decision 0008). Called again after the Janus session
   * is lost, as a restarted Janus has no rooms.
   */
  readonly room: () => Promise<RoomAccess>;
  /** spec §7: display = the participant's username. */
  readonly display: string;
  readonly callType: MediaCallType;
  readonly video?: VideoOptions;
  readonly audio?: AudioOptions;
  /** Retries of each set-up step (spec §8: up to 20). */
  readonly retry?: RetryPolicy;
  /** Attempts to re-create a lost session before the call ends. */
  readonly reconnect?: RetryPolicy;
  /** spec §9 delays, overridable for tests and benchmarks. */
  readonly joinDelayMs?: number;
  readonly feedDelayMs?: { readonly base: number; readonly perPublisher: number };
  /**
   * How often quality is sampled (default 1000 ms); the same samples tell a peer's muted
   * stream (no packets) from a live one. 0 turns both off.
   */
  readonly qualityIntervalMs?: number;
  readonly debug?: boolean;
}

/** Why a call ended: we left, the room was destroyed (spec §4), we were kicked, or it failed. */
export type EndReason = 'left' | 'roomDestroyed' | 'kicked' | 'failed';

/**
 * Everything the UI shows about the media, as plain data (safe to put in a store). Each change
 * is a new object (never mutated), so a store may freeze it; no `readonly` so that Immer drafts
 * accept it.
 */
export interface MediaState {
  status: ConnectionStatus;
  endReason: EndReason | null;
  error: { code: MediaErrorCode; message: string } | null;
  stages: MediaSetupStages;
  feeds: RemoteFeed[];
  local: {
    audioMuted: boolean;
    videoMuted: boolean;
    onHold: boolean;
  };
  streamsReady: StreamsReady;
  /** spec §4: first remote media ⇒ Resumed; Paused once the peer left or unpublished. */
  peerCall: PeerCallState;
  peerVideo: PeerCallState;
  quality: { send: LinkQuality | null; receive: LinkQuality | null };
  /**
   * How many times the session was re-created after it was lost (a Janus session and its
   * room, again); a p2p session is never re-created. An ICE restart that brings the path back
   * re-creates nothing: the quality report's `reconnects` counts every return from
   * `reconnecting`, these and those.
   */
  reconnects: number;
}

export interface MediaSessionEvents extends SessionEvents {
  state: MediaState;
  stage: { stage: MediaSetupStage; ok: boolean; error: MediaError | null };
  /** The local camera/microphone stream (null once stopped). */
  localStream: MediaStream | null;
  /** A remote participant's stream; null when it went away. */
  remoteStream: { janusId: string; display: string; stream: MediaStream | null };
  /** spec §8: ICE failed; the app sends a call-report update with these SDPs. */
  iceFailed: {
    direction: MediaDirection;
    localSdp: string | null;
    remoteSdp: string | null;
  };
}

/** Our two PeerConnections: the one we publish on and the one we receive on. */
export type MediaDirection = 'publish' | 'subscribe';
