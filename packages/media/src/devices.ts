import type { MediaCallType } from '@frontdesk/protocol';

export interface MediaDevice {
  readonly deviceId: string;
  readonly label: string;
}

export interface DeviceList {
  readonly cameras: readonly MediaDevice[];
  readonly microphones: readonly MediaDevice[];
  readonly speakers: readonly MediaDevice[];
}

/** Cameras, microphones and speakers (labels are empty until media access was granted). */
export async function listDevices(): Promise<DeviceList> {
  const devices = await navigator.mediaDevices.enumerateDevices();
  const of = (kind: MediaDeviceKind) =>
    devices
      .filter((device) => device.kind === kind)
      .map(({ deviceId, label }) => ({ deviceId, label }));
  return { cameras: of('videoinput'), microphones: of('audioinput'), speakers: of('audiooutput') };
}

/**
 * spec §5 media check: the camera is requested with audio (audio alone for a voice call);
 * any failure is `disabledCamera`. The tracks are released at once.
 */
export async function checkMediaAccess(callType: MediaCallType): Promise<'ok' | 'disabledCamera'> {
  try {
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: true,
      video: callType === 'video',
    });
    for (const track of stream.getTracks()) track.stop();
    return 'ok';
  } catch {
    return 'disabledCamera';
  }
}

/**
 * Shows a stream in a media element with the call volume (spec §3 callVolume, 0–1) and, where
 * the browser supports choosing one, the speaker.
 */
export async function playStream(
  element: HTMLMediaElement,
  stream: MediaStream | null,
  options: { volume?: number; speakerId?: string } = {},
): Promise<void> {
  if (element.srcObject !== stream) element.srcObject = stream;
  if (options.volume !== undefined) element.volume = Math.min(1, Math.max(0, options.volume));
  // setSinkId is missing from some browsers (and from older DOM typings): feature-test it.
  const sink = element as HTMLMediaElement & { setSinkId?: (id: string) => Promise<void> };
  if (options.speakerId !== undefined && sink.setSinkId) await sink.setSinkId(options.speakerId);
}
