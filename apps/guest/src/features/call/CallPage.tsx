import { useEffect, useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useT } from '../../i18n/useT.ts';
import {
  CameraIcon,
  FitIcon,
  HangUpIcon,
  MicIcon,
  PersonIcon,
  SettingsIcon,
  SignalIcon,
  SwitchCameraIcon,
} from '../../ui/icons.tsx';
import { ChatSheet, ChatToggle } from '../chat/ChatPanel.tsx';
import { hangUp } from './callFlow.ts';
import {
  backCameraToggled,
  deviceConfigToggled,
  endConfirmToggled,
  muteClicked,
  zoomToggled,
  callReconnecting,
} from './callSlice.ts';
import { CallTimer, ControlButton, MovableSelfView } from './controls.tsx';
import { DEVICES_BUTTON_ID, DevicePanel } from './DevicePanel.tsx';
import { StreamVideo } from './StreamVideo.tsx';
import './call.css';

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

const BARS = { good: 3, fair: 2, poor: 1 } as const;

/** What the call screen says while the call reconnects, by its cause. */
const RECONNECTING_TEXT = {
  self: 'reconnecting',
  resuming: 'resumingCall',
  agent: 'agentReconnecting',
} as const;

/**
 * spec §2 stage "ongoing", laid out for a phone first (decision 0022): the agent's video fills
 * the screen (a large avatar and the call's time in a voice call), the guest's own picture a
 * movable inset, the recording notice and the connection quality small over the picture, one
 * row of round controls always in sight (microphone, camera, switch camera, devices, chat, end),
 * and the chat and the devices as panels over the picture (beside it on a wide screen). Also the
 * hold page, the watermark and the "reconnecting" state.
 */
export function CallPage() {
  const t = useT();
  const dispatch = useAppDispatch();
  const company = useAppSelector((state) => state.company.details);
  const call = useAppSelector((state) => state.call);
  const chatOpen = useAppSelector((state) => state.chat.isChatOpen);
  // One clock for the call, whether the time shows over the video or under the avatar.
  const [since] = useState(() => Date.now());
  if (!company) return null;
  const feed = call.feeds[0];
  const video = call.callType === 'video';
  const showsVideo = video && feed !== undefined && !feed.videoMuted;
  // decision 0025: this side's connection, a call taken up after a reload, or the agent's side.
  const reconnecting = callReconnecting(call);
  const level = call.quality.receive?.level;
  const title = t('callTitle', { name: company.name });
  // The agent's first name once the API gave it (agentName.ts), the company's name until then.
  const peer = call.agentName ?? company.name;

  return (
    <section
      className="call"
      data-testid="stage-ongoing"
      data-call-type={call.callType}
      data-on-hold={call.onHold}
      data-chat-open={chatOpen}
      aria-labelledby="call-title"
    >
      <h1 id="call-title" className="visually-hidden">
        {title}
      </h1>
      <div className="call-stage" data-testid="call-stage">
        {showsVideo ? (
          <StreamVideo
            streamKey={feed.janusId}
            label={t('agentVideo')}
            fit={call.isZoomed ? 'cover' : 'contain'}
            volume={call.callVolume}
            testId="remote-video"
          />
        ) : (
          <div className="call-avatar" data-testid="remote-avatar">
            <span className="call-avatar-picture" aria-hidden="true">
              {call.agentName ? (
                <span className="call-avatar-initial">{[...call.agentName][0]}</span>
              ) : (
                <PersonIcon />
              )}
            </span>
            <p className="call-avatar-name" data-testid="agent-name">
              {peer}
            </p>
            <p>{video ? t('agentCameraOff') : t('voiceCallWith')}</p>
            <CallTimer since={since} />
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
        <div className="call-overlays">
          {showsVideo && (
            <p className="call-pill call-peer">
              <span className="call-peer-name" data-testid="agent-name">
                {peer}
              </span>
              <CallTimer since={since} />
            </p>
          )}
          {(call.recorded ?? company.recordCalls) && (
            <p className="call-pill call-recording" data-testid="recording-notice">
              <span className="call-recording-dot" aria-hidden="true" />
              <span>{company.recordAlertText ?? t('recording')}</span>
            </p>
          )}
          {level && (
            <p
              className={`call-pill call-quality quality-${level}`}
              role="status"
              data-testid="call-quality"
            >
              <SignalIcon bars={BARS[level]} />
              <span>{t('quality', { level: t(`quality_${level}`) })}</span>
            </p>
          )}
        </div>
        {showsVideo && (
          <button
            type="button"
            className="call-fit"
            aria-label={call.isZoomed ? t('zoomFit') : t('zoomFill')}
            title={call.isZoomed ? t('zoomFit') : t('zoomFill')}
            onClick={() => dispatch(zoomToggled())}
          >
            <FitIcon fill={!call.isZoomed} />
          </button>
        )}
        {reconnecting && (
          <p
            className="call-reconnecting"
            role="alert"
            data-testid="reconnecting"
            data-reconnecting={reconnecting}
          >
            {t(RECONNECTING_TEXT[reconnecting])}
          </p>
        )}
        {video && <MovableSelfView label={t('yourCamera')} />}
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
      <div className="call-controls" role="toolbar" aria-label={title}>
        <ControlButton
          label={call.localAudioMuted ? t('unmuteMic') : t('muteMic')}
          icon={<MicIcon off={call.localAudioMuted} />}
          off={call.localAudioMuted}
          onClick={() => dispatch(muteClicked({ kind: 'audio', muted: !call.localAudioMuted }))}
          testId="toggle-audio"
        />
        {video && (
          <ControlButton
            label={call.localVideoMuted ? t('cameraOn') : t('cameraOff')}
            icon={<CameraIcon off={call.localVideoMuted} />}
            off={call.localVideoMuted}
            onClick={() => dispatch(muteClicked({ kind: 'video', muted: !call.localVideoMuted }))}
            testId="toggle-video"
          />
        )}
        {video && company.flipCamera && (
          <ControlButton
            label={t('backCamera')}
            icon={<SwitchCameraIcon />}
            onClick={() => dispatch(backCameraToggled())}
            testId="switch-camera"
          />
        )}
        <ControlButton
          id={DEVICES_BUTTON_ID}
          label={t('devices')}
          icon={<SettingsIcon />}
          expanded={call.deviceConfigOpen}
          controls="device-panel"
          onClick={() => dispatch(deviceConfigToggled())}
          testId="devices-toggle"
        />
        <ChatToggle variant="icon" />
        <ControlButton
          label={t('endCall')}
          icon={<HangUpIcon />}
          danger
          onClick={() => dispatch(endConfirmToggled(true))}
          testId="end-call"
        />
      </div>
      <DevicePanel />
      <ChatSheet className="chat-panel call-chat" />
      {call.endConfirmOpen && <EndCallDialog />}
    </section>
  );
}
