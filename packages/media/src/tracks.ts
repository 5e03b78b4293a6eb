import {
  VIDEO_PRESETS,
  videoPresetSchema,
  type MediaCallType,
  type VideoPreset,
} from '@frontdesk/protocol';
import { MediaError } from './errors.ts';

/** Which camera to use: a device, or a side on mobile (back camera = `environment`). */
export type CameraChoice = { deviceId: string } | { facingMode: 'user' | 'environment' };

export interface VideoOptions {
  /** spec §9 presets; default `stdres` (640x480). */
  readonly preset?: VideoPreset;
  readonly camera?: CameraChoice;
  /** Send three simulcast layers at spec §9's bitrates. */
  readonly simulcast?: boolean;
  /** Maximum video bitrate in bit/s (spec §5: a non-negative number). */
  readonly bitrate?: number;
  /** Maximum frame rate (spec §5: a non-negative number). */
  readonly framerate?: number;
}

export interface AudioOptions {
  readonly deviceId?: string;
}

/** What to capture and send: spec §5, a camera call needs audio and video, a voice call audio. */
export interface CaptureOptions {
  readonly callType: MediaCallType;
  readonly video?: VideoOptions;
  readonly audio?: AudioOptions;
}

function checkNonNegative(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isFinite(value) && value >= 0)) {
    throw new MediaError('invalidArgument', `${name} must be a non-negative number`);
  }
}

/** spec §5: bitrate and framerate must be non-negative numbers; the preset must be known. */
export function validateCapture(options: CaptureOptions): void {
  checkNonNegative('bitrate', options.video?.bitrate);
  checkNonNegative('framerate', options.video?.framerate);
  if (
    options.video?.preset !== undefined &&
    !videoPresetSchema.safeParse(options.video.preset).success
  ) {
    throw new MediaError('invalidArgument', `unknown video preset ${options.video.preset}`);
  }
}

/** getUserMedia constraints for a camera at a preset size. */
export function videoConstraints(video: VideoOptions = {}): MediaTrackConstraints {
  const { width, height } = VIDEO_PRESETS[video.preset ?? 'stdres'];
  const constraints: MediaTrackConstraints = { width: { ideal: width }, height: { ideal: height } };
  if (video.camera && 'deviceId' in video.camera) {
    constraints.deviceId = { exact: video.camera.deviceId };
  } else if (video.camera) {
    constraints.facingMode = { ideal: video.camera.facingMode };
  }
  if (video.framerate) constraints.frameRate = { max: video.framerate };
  return constraints;
}

/** getUserMedia constraints for the whole capture (spec §5 rules above). */
export function captureConstraints(options: CaptureOptions): MediaStreamConstraints {
  validateCapture(options);
  return {
    audio: options.audio?.deviceId ? { deviceId: { exact: options.audio.deviceId } } : true,
    video: options.callType === 'video' ? videoConstraints(options.video) : false,
  };
}
