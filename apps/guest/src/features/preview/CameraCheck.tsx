import type { Ref } from 'react';
import type { DeviceList } from '@frontdesk/media/devices';
import { useT } from '../../i18n/useT.ts';
import { StageActions } from '../../app/StageActions.tsx';
import { DeviceSelect } from '../call/DeviceSelect.tsx';
import './preview.css';

/** What the camera check shows, whoever feeds it (the guest's own devices, or a sample). */
export type CameraCheckProps = {
  withVideo: boolean;
  /** The `<video>` the guest's camera plays in. */
  video?: Ref<HTMLVideoElement>;
  /** The microphone's level, 0 to 1. */
  level: number;
  devices: DeviceList | null;
  cameraId: string;
  microphoneId: string;
  onChooseCamera: (deviceId: string) => void;
  onChooseMicrophone: (deviceId: string) => void;
  /** The connection test's round trip in ms (Infinity: failed), null while it runs. */
  latency: number | null;
  /** Whether the camera and microphone work, so the guest may go on. */
  ready: boolean;
  onContinue: () => void;
  /** Back to the stage before (the welcome form), where there is one. */
  onBack?: () => void;
};

const SLOW_CONNECTION_MS = 800;

/**
 * spec §2 stage "preview", the screen alone: the guest's picture, the microphone's level, the
 * device choice and the connection test. {@link PreviewPage} runs it on the guest's devices; the
 * admin's live preview shows it with sample values and no camera.
 */
export function CameraCheck({
  withVideo,
  video,
  level,
  devices,
  cameraId,
  microphoneId,
  onChooseCamera,
  onChooseMicrophone,
  latency,
  ready,
  onContinue,
  onBack,
}: CameraCheckProps) {
  const t = useT();
  return (
    <section className="card" data-testid="stage-preview" aria-labelledby="preview-title">
      <h1 id="preview-title">{t('previewTitle')}</h1>
      {withVideo ? (
        <video
          ref={video}
          className="preview-video stream-self"
          aria-label={t('yourCamera')}
          autoPlay
          playsInline
          muted
          data-testid="preview-video"
        />
      ) : (
        <p>{t('previewNoVideo')}</p>
      )}
      <div className="field">
        <span id="mic-level-label">{t('micLevel')}</span>
        <meter
          aria-labelledby="mic-level-label"
          min={0}
          max={1}
          value={level}
          data-testid="mic-level"
        />
      </div>
      {withVideo && (
        <DeviceSelect
          id="preview-camera"
          kind="camera"
          devices={devices?.cameras}
          value={cameraId}
          onChoose={onChooseCamera}
        />
      )}
      <DeviceSelect
        id="preview-microphone"
        kind="microphone"
        devices={devices?.microphones}
        value={microphoneId}
        onChoose={onChooseMicrophone}
      />
      <p role="status" data-testid="connection-test">
        {latency === null
          ? t('previewTest')
          : latency <= SLOW_CONNECTION_MS
            ? t('previewConnectionOk')
            : t('previewConnectionBad', { ms: Number.isFinite(latency) ? latency : '∞' })}
      </p>
      <StageActions onBack={onBack}>
        <button type="button" className="button-primary" disabled={!ready} onClick={onContinue}>
          {t('continue')}
        </button>
      </StageActions>
    </section>
  );
}
