// @frontdesk/media/server: what the API runs next to Janus (Node only, no janus.js).
export {
  JanusRoomError,
  JanusRooms,
  type CallRoomOptions,
  type JanusAdminOptions,
} from './rooms.ts';
export { mergeCallRecording } from './recordings.ts';
export { screenBrowserMessage, type GateVerdict } from './gate.ts';
