import { useEffect, useRef } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useT } from '../../i18n/useT.ts';
import { ChatPanel } from '../chat/ChatPanel.tsx';
import { hangUp } from './callFlow.ts';
import { backCameraToggled, endConfirmToggled, muteClicked, zoomToggled } from './callSlice.ts';
import { DevicePanel } from './DevicePanel.tsx';
import { SelfView, StreamVideo } from './StreamVideo.tsx';

/** Confirmation before ending: a dialog that takes focus and answers Escape. */
function EndCallDialog() {
  const t = useT();
  const dispatch = useAppDispatch();
  const stay = useRef<HTMLButtonElement>(null);
  useEffect(() => stay.current?.focus(), []);
  // Escape answers "stay" wherever the focus is while the dialog is open.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') dispatch(endConfirmToggled(false));
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [dispatch]);
  return (
    <div className="dialog" role="alertdialog" aria-modal="true" aria-labelledby="end-call-title">
      <h2 id="end-call-title">{t('endCallConfirm')}</h2>
      <button
        type="button"
        ref={stay}
        className="button-secondary"
        onClick={() => dispatch(endConfirmToggled(false))}
      >
        {t('endCallNo')}
      </button>
      <button type="button" className="button-danger" onClick={() => void dispatch(hangUp())}>
        {t('endCallYes')}
      </button>
    </div>
  );
}

/**
 * spec §2 stage "ongoing": the agent's video (or an avatar in a voice call), the guest's own
 * picture, the controls, the chat, the hold page, the recording notice, the watermark, the
 * connection quality and a "reconnecting" state.
 */
export function CallPage() {
  const t = useT();
  const dispatch = useAppDispatch();
  const company = useAppSelector((state) => state.company.details);
  const call = useAppSelector((state) => state.call);
  if (!company) return null;
  const feed = call.feeds[0];
  const video = call.callType === 'video';
  const reconnecting =
    call.connection.media === 'reconnecting' || call.connection.chat === 'reconnecting';
  const level = call.quality.receive?.level;

  return (
    <section
      className="call"
      data-testid="stage-ongoing"
      data-on-hold={call.onHold}
      aria-labelledby="call-title"
    >
      <h1 id="call-title" className="visually-hidden">
        {t('callTitle', { name: company.name })}
      </h1>
      {company.recordCalls && (
        <p className="call-recording" data-testid="recording-notice">
          <span aria-hidden="true">●</span> {company.recordAlertText ?? t('recording')}
        </p>
      )}
      {reconnecting && (
        <p className="call-reconnecting" role="alert" data-testid="reconnecting">
          {t('reconnecting')}
        </p>
      )}
      <div className="call-stage">
        {video && feed && !feed.videoMuted ? (
          <StreamVideo
            streamKey={feed.janusId}
            label={t('agentVideo')}
            fit={call.isZoomed ? 'cover' : 'contain'}
            volume={call.callVolume}
            testId="remote-video"
          />
        ) : (
          <div className="call-avatar" data-testid="remote-avatar">
            <span aria-hidden="true">🎧</span>
            <p>{video ? t('agentCameraOff') : t('voiceCallWith')}</p>
            {/* Voice calls and a camera-off agent still play the agent's audio. */}
            {feed && (
              <StreamVideo
                streamKey={feed.janusId}
                label={t('agent')}
                fit="contain"
                volume={call.callVolume}
                testId="remote-audio"
              />
            )}
          </div>
        )}
        {company.streamWatermark === 'visible' && company.waterMarkLogo && (
          <img className="call-watermark" src={company.waterMarkLogo} alt="" />
        )}
        {video && <SelfView className="call-self" label={t('yourCamera')} />}
        {call.onHold && (
          <div className="call-hold" role="status" data-testid="hold-page">
            {company.holdPageImage && <img src={company.holdPageImage} alt="" />}
            <h2>{t('onHoldTitle')}</h2>
            <p>{company.holdPageText ?? t('onHoldDefault')}</p>
            {(video ? company.videoOnHoldText : company.audioOnHoldText) && (
              <p>{video ? company.videoOnHoldText : company.audioOnHoldText}</p>
            )}
          </div>
        )}
      </div>
      {level && (
        <p className={`call-quality quality-${level}`} role="status" data-testid="call-quality">
          {t('quality', { level: t(`quality_${level}`) })}
        </p>
      )}
      <div
        className="call-controls"
        role="toolbar"
        aria-label={t('callTitle', { name: company.name })}
      >
        <button
          type="button"
          aria-pressed={call.localAudioMuted}
          onClick={() => dispatch(muteClicked({ kind: 'audio', muted: !call.localAudioMuted }))}
          data-testid="toggle-audio"
        >
          {call.localAudioMuted ? t('unmuteMic') : t('muteMic')}
        </button>
        {video && (
          <button
            type="button"
            aria-pressed={call.localVideoMuted}
            onClick={() => dispatch(muteClicked({ kind: 'video', muted: !call.localVideoMuted }))}
            data-testid="toggle-video"
          >
            {call.localVideoMuted ? t('cameraOn') : t('cameraOff')}
          </button>
        )}
        {video && company.flipCamera && (
          <button
            type="button"
            aria-pressed={call.isBackCam}
            onClick={() => dispatch(backCameraToggled())}
          >
            {t('backCamera')}
          </button>
        )}
        {video && (
          <button
            type="button"
            aria-pressed={!call.isZoomed}
            onClick={() => dispatch(zoomToggled())}
          >
            {call.isZoomed ? t('zoomFit') : t('zoomFill')}
          </button>
        )}
        <DevicePanel />
        <button
          type="button"
          className="button-danger"
          onClick={() => dispatch(endConfirmToggled(true))}
          data-testid="end-call"
        >
          {t('endCall')}
        </button>
      </div>
      <ChatPanel />
      {call.endConfirmOpen && <EndCallDialog />}
    </section>
  );
}
