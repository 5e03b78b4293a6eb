// @frontdesk/media: the browser's only door to Janus (janus.js stays inside this package).
// Server-side room management is the separate entry `@frontdesk/media/server`.
export { createMediaSession, MediaSession } from './session.ts';
export { INITIAL_MEDIA_STATE } from './session-state.ts';
export { createP2pSession, P2pSession, type P2pSessionOptions } from './p2p/index.ts';
// The session's options, plain state and events: EndReason, MediaDirection, MediaSessionEvents,
// MediaSessionOptions, MediaState (whose status is the protocol's ConnectionStatus).
export type * from './types.ts';
export { MediaError, type MediaErrorCode } from './errors.ts';
export type { RetryPolicy } from './retry.ts';
export type { AudioOptions, CameraChoice, VideoOptions } from './tracks.ts';
export {
  checkMediaAccess,
  listDevices,
  playStream,
  type DeviceList,
  type MediaDevice,
} from './devices.ts';
export { closePreview, microphoneLevel, openPreview, type PreviewChoice } from './preview.ts';
export { INITIAL_CALL_STATUS, nextCallStatus, type PeerDirectory } from './call-status.ts';
