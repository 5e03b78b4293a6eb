// @frontdesk/media/server: the Node side of the media layer (no janus.js): the API's rooms,
// recordings and gate, and the one Janus HTTP client, which the bench and the tests use too.
export {
  JanusError,
  JanusHandle,
  JanusSession,
  VIDEOROOM_PLUGIN,
  withPluginHandle,
  type JanusHttpOptions,
  type Jsep,
  type PluginReply,
} from './janus-http.ts';
export { JanusRooms, type CallRoomOptions, type JanusAdminOptions } from './rooms.ts';
export { mergeCallRecording } from './recordings.ts';
export { screenBrowserMessage, type GateVerdict } from './gate.ts';
