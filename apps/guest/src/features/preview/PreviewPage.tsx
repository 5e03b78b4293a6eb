import { useEffect, useRef, useState } from 'react';
import { routes } from '@frontdesk/protocol';
import { listDevices, playStream, type DeviceList } from '@frontdesk/media/devices';
import { closePreview, microphoneLevel, openPreview } from '@frontdesk/media/preview';
import { api } from '../../app/api.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { mediaAccessChecked, previewDevicesChosen } from '../browserCheck/browserCheckSlice.ts';
import { stageReached } from '../flow/flowSlice.ts';
import { mediaRefused } from '../call/mediaRefused.ts';
import { CameraCheck } from './CameraCheck.tsx';

/** A round trip to our service, to tell the guest whether the connection will carry a call. */
async function measureConnection(): Promise<number> {
  const started = performance.now();
  await api(routes.health);
  return Math.round(performance.now() - started);
}

/**
 * spec §2 stage "preview": the guest sees and hears itself before the call, picks its camera and
 * microphone (which the call then uses), and gets a connection test. spec §5: a refused camera is
 * `disabledCamera`, whose page offers a voice call where the company lets the guest choose; after
 * that choice the preview asks for the microphone only.
 */
export function PreviewPage() {
  const dispatch = useAppDispatch();
  const company = useAppSelector((state) => state.company.details);
  const voiceOnly = useAppSelector((state) => state.browserCheck.voiceOnly);
  const withVideo = company?.callType !== 'voice' && !voiceOnly;
  const [devices, setDevices] = useState<DeviceList | null>(null);
  // Back from the selection, the preview opens the devices the guest had picked.
  const chosen = useAppSelector((state) => state.browserCheck);
  const [cameraId, setCameraId] = useState<string | undefined>(chosen.cameraId ?? undefined);
  const [microphoneId, setMicrophoneId] = useState<string | undefined>(
    chosen.microphoneId ?? undefined,
  );
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [level, setLevel] = useState(0);
  const [latency, setLatency] = useState<number | null>(null);
  const video = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    let cancelled = false;
    let opened: MediaStream | null = null;
    openPreview({
      callType: withVideo ? 'video' : 'voice',
      ...(cameraId ? { cameraId } : {}),
      ...(microphoneId ? { microphoneId } : {}),
    })
      .then(async (previewStream) => {
        opened = previewStream;
        if (cancelled) return closePreview(previewStream);
        dispatch(mediaAccessChecked(true));
        setStream(previewStream);
        setDevices(await listDevices());
      })
      .catch(() => {
        if (!cancelled) mediaRefused(dispatch);
      });
    return () => {
      cancelled = true;
      closePreview(opened);
    };
  }, [withVideo, cameraId, microphoneId, dispatch]);

  useEffect(() => {
    if (video.current && stream) void playStream(video.current, stream);
    if (!stream || stream.getAudioTracks().length === 0) return;
    const meter = microphoneLevel(stream);
    const timer = setInterval(() => setLevel(meter.read()), 150);
    return () => {
      clearInterval(timer);
      meter.stop();
    };
  }, [stream]);

  useEffect(() => {
    measureConnection().then(setLatency, () => setLatency(Number.POSITIVE_INFINITY));
  }, []);

  const track = (kind: 'audio' | 'video') =>
    stream
      ?.getTracks()
      .find((t) => t.kind === kind)
      ?.getSettings().deviceId ?? '';
  const shownCamera = track('video');
  const shownMicrophone = track('audio');
  useEffect(() => {
    if (stream)
      dispatch(
        previewDevicesChosen({
          cameraId: shownCamera || null,
          microphoneId: shownMicrophone || null,
        }),
      );
  }, [stream, shownCamera, shownMicrophone, dispatch]);

  return (
    <CameraCheck
      withVideo={withVideo}
      video={video}
      level={level}
      devices={devices}
      cameraId={shownCamera}
      microphoneId={shownMicrophone}
      onChooseCamera={setCameraId}
      onChooseMicrophone={setMicrophoneId}
      latency={latency}
      ready={stream !== null}
      onContinue={() => dispatch(stageReached('selection'))}
      {...(company?.welcomeForm ? { onBack: () => dispatch(stageReached('welcome')) } : {})}
    />
  );
}
