import type { MediaSessionOptions } from '@frontdesk/media';

/**
 * What the call captures: the camera and microphone the guest picked in the preview (issue 18:
 * the call uses the devices the guest saw working), else the front camera where the company
 * offers switching to the back one, else the browser's defaults.
 */
export function captureChoice(
  chosen: { cameraId: string | null; microphoneId: string | null },
  flipCamera: boolean,
): Pick<MediaSessionOptions, 'video' | 'audio'> {
  const camera = chosen.cameraId
    ? { deviceId: chosen.cameraId }
    : flipCamera
      ? { facingMode: 'user' as const }
      : undefined;
  return {
    ...(camera ? { video: { camera } } : {}),
    ...(chosen.microphoneId ? { audio: { deviceId: chosen.microphoneId } } : {}),
  };
}
