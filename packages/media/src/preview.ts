import type { MediaCallType } from '@frontdesk/protocol';
import { MediaError } from './errors.ts';
import { captureConstraints } from './tracks.ts';

/** The devices a guest picked on the preview screen; absent means the browser's default. */
export interface PreviewChoice {
  readonly callType: MediaCallType;
  readonly cameraId?: string;
  readonly microphoneId?: string;
}

/**
 * The camera and microphone before a call (the guest's preview stage), with the same constraints
 * the call will use. spec §5: a refusal or a missing device is `disabledCamera`.
 */
export async function openPreview(choice: PreviewChoice): Promise<MediaStream> {
  const constraints = captureConstraints({
    callType: choice.callType,
    ...(choice.cameraId ? { video: { camera: { deviceId: choice.cameraId } } } : {}),
    ...(choice.microphoneId ? { audio: { deviceId: choice.microphoneId } } : {}),
  });
  try {
    return await navigator.mediaDevices.getUserMedia(constraints);
  } catch (error) {
    throw new MediaError('disabledCamera', error instanceof Error ? error.message : String(error));
  }
}

/** Releases a preview's camera and microphone (the light goes off). */
export function closePreview(stream: MediaStream | null): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/**
 * How loud the microphone is, 0–1, sampled on demand: the preview's level meter, so a guest sees
 * that the call will hear them. `stop` releases the audio graph.
 */
export function microphoneLevel(stream: MediaStream): { read: () => number; stop: () => void } {
  const context = new AudioContext();
  const analyser = context.createAnalyser();
  analyser.fftSize = 512;
  context.createMediaStreamSource(stream).connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  return {
    read() {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const sample of samples) sum += sample * sample;
      // RMS of speech sits around 0.01–0.2; scale so normal speech fills most of the meter.
      return Math.min(1, Math.sqrt(sum / samples.length) * 5);
    },
    stop: () => void context.close(),
  };
}
