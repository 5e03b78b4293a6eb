import type { MediaSetupStage } from '@frontdesk/protocol';
import { MediaError, toMediaError } from './errors.ts';
import {
  captureConstraints,
  videoConstraints,
  type CameraChoice,
  type CaptureOptions,
  type VideoOptions,
} from './tracks.ts';
import type { MediaSessionEvents, MediaState } from './types.ts';

/**
 * What a session (Janus or p2p) lends the capture of our camera and microphone: the capture
 * options, the stream it holds, and its state and events. Both sessions' contexts fit it.
 */
export interface LocalMediaHost {
  readonly options: CaptureOptions;
  local: MediaStream | null;
  state(): MediaState;
  update(patch: Partial<MediaState>): void;
  stage(stage: MediaSetupStage, ok: boolean, error?: MediaError | null): void;
  emit<K extends keyof MediaSessionEvents>(event: K, payload: MediaSessionEvents[K]): void;
}

/** Whether this browser has WebRTC at all. */
export function webrtcSupported(): boolean {
  return typeof RTCPeerConnection === 'function';
}

/** spec §5: a camera call needs audio and video; any capture failure is `disabledCamera`. */
export async function captureLocal(host: LocalMediaHost): Promise<void> {
  try {
    host.local = await navigator.mediaDevices.getUserMedia(captureConstraints(host.options));
  } catch (raw) {
    const error =
      raw instanceof MediaError ? raw : new MediaError('disabledCamera', toMediaError(raw).message);
    host.stage('localStream', false, error);
    throw error;
  }
  host.stage('localStream', true);
  host.update({ streamsReady: { ...host.state().streamsReady, local: true } });
  host.emit('localStream', host.local);
}

/** Stops our camera and microphone once the call ended. */
export function releaseLocal(host: LocalMediaHost): void {
  for (const track of host.local?.getTracks() ?? []) track.stop();
  host.local = null;
  host.emit('localStream', null);
}

/** The capture of another camera (or preset, or the back camera). */
export function cameraConstraints(
  host: LocalMediaHost,
  choice: CameraChoice,
  preset?: VideoOptions['preset'],
): MediaStreamConstraints {
  return {
    video: videoConstraints({
      ...host.options.video,
      camera: choice,
      ...(preset ? { preset } : {}),
    }),
  };
}

/** The capture of another microphone. */
export function microphoneConstraints(deviceId: string): MediaStreamConstraints {
  return { audio: { deviceId: { exact: deviceId } } };
}

/**
 * A new capture of one kind replaces ours: `send` puts it on the wire in place of the old one
 * (replaceTrack: no renegotiation), then the old one stops. The new track keeps the user's
 * mute and hold.
 */
export async function replaceLocalTrack(
  host: LocalMediaHost,
  kind: 'audio' | 'video',
  constraints: MediaStreamConstraints,
  send: (old: MediaStreamTrack | undefined, track: MediaStreamTrack) => Promise<void>,
): Promise<void> {
  const local = host.local;
  if (!local) throw new MediaError('invalidArgument', 'no local media to switch');
  let track: MediaStreamTrack | undefined;
  try {
    track = (await navigator.mediaDevices.getUserMedia(constraints)).getTracks()[0];
  } catch (raw) {
    throw new MediaError('disabledCamera', toMediaError(raw).message);
  }
  if (!track) throw new MediaError('disabledCamera', `no ${kind} track`);
  const old = local.getTracks().find((t) => t.kind === kind);
  const state = host.state().local;
  const muted = kind === 'audio' ? state.audioMuted : state.videoMuted;
  track.enabled = !muted && !state.onHold;
  await send(old, track);
  if (old) {
    local.removeTrack(old);
    old.stop();
  }
  local.addTrack(track);
  host.emit('localStream', local);
}
