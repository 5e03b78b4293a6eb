import { useEffect, useRef, useState } from 'react';
import type { DeviceList } from '@frontdesk/media';
import type { LinkQuality } from '@frontdesk/protocol';
import { LOCAL_STREAM } from '@frontdesk/media/streams';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useServices } from '../../app/servicesContext.ts';
import { t } from '../../i18n/messages.ts';
import { callDismissed, cameraChosen, microphoneChosen } from './callSlice.ts';
import { guestLabel } from '../chat/guestLabel.ts';
import { CallControls } from './CallControls.tsx';
import { CallNotes } from './CallNotes.tsx';
import { CallTimer } from './CallTimer.tsx';
import { CallTitle } from './CallTitle.tsx';
import { MediaTile } from './MediaTile.tsx';
import { VoiceStage } from './VoiceStage.tsx';
import { WrapUp } from './WrapUp.tsx';

/** The level in words, then the figures behind it for whoever wants them. */
function describeQuality(quality: LinkQuality): string {
  const figures = {
    level: t(`quality_${quality.level}`),
    kbps: Math.round(quality.kbps),
    loss: quality.lossPercent,
  };
  return quality.rttMs === null
    ? t('qualityFigures', figures)
    : t('qualityFiguresRtt', { ...figures, rtt: Math.round(quality.rttMs) });
}

function Quality(props: {
  direction: 'send' | 'receive';
  label: string;
  quality: LinkQuality | null;
}) {
  const { direction, label, quality } = props;
  return (
    <div data-testid={`quality-${direction}`} data-level={quality?.level ?? 'unknown'}>
      <dt>{label}</dt>
      <dd>{quality ? describeQuality(quality) : t('qualityUnknown')}</dd>
    </div>
  );
}

/** Camera and microphone pickers, listed once the call has media access (labels need it). */
function Devices({ voice }: { voice: boolean }) {
  const dispatch = useAppDispatch();
  const { loadMedia } = useServices();
  const ready = useAppSelector((state) => state.call.media?.streamsReady.local ?? false);
  const [devices, setDevices] = useState<DeviceList | null>(null);
  useEffect(() => {
    if (!ready) return;
    let live = true;
    void loadMedia()
      .then((media) => media.listDevices())
      .then((list) => live && setDevices(list));
    return () => {
      live = false;
    };
  }, [ready, loadMedia]);
  if (!devices) return null;
  const picker = (label: string, list: DeviceList['cameras'], onPick: (id: string) => void) => (
    <label>
      {label}
      <select
        defaultValue=""
        onChange={(event) => event.target.value && onPick(event.target.value)}
      >
        <option value="">{t('changeDevice')}</option>
        {list.map((device, index) => (
          <option key={device.deviceId} value={device.deviceId}>
            {device.label || `${label} ${index + 1}`}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div className="devices">
      {!voice && picker(t('camera'), devices.cameras, (id) => dispatch(cameraChosen(id)))}
      {picker(t('microphone'), devices.microphones, (id) => dispatch(microphoneChosen(id)))}
    </div>
  );
}

/** The call with one guest: media, controls, notes; then how it ended. */
export function CallScreen() {
  const dispatch = useAppDispatch();
  const { phase, call, media, onHold, error, outcome, guestAway, guestGone } = useAppSelector(
    (state) => state.call,
  );
  const heading = useRef<HTMLHeadingElement>(null);
  // A new call takes the focus, so keyboard and screen-reader users land in it.
  useEffect(() => heading.current?.focus(), [call?.callId, phase]);
  if (!call) return null;

  const title = t('inCallTitle', { guest: guestLabel(call.guestJabberUsername) });
  if (phase === 'ended') {
    return (
      <section aria-labelledby="call-title" data-testid="call-screen" data-phase={phase}>
        <header className="call-header">
          <h2 id="call-title" tabIndex={-1} ref={heading}>
            <CallTitle call={call} />
          </h2>
          <CallTimer since={call.answeredAt} running={false} />
        </header>
        <p role="status">{t(`outcome_${outcome ?? 'completed'}`)}</p>
        <WrapUp callId={call.callId} />
        <CallNotes />
        <button type="button" onClick={() => dispatch(callDismissed())}>
          {t('backToQueue')}
        </button>
      </section>
    );
  }

  const feeds = media?.feeds ?? [];
  // A voice call shows the guest's initials and the time, never two black tiles (issue 19).
  const voice = call.callType === 'voice';
  return (
    <section
      aria-labelledby="call-title"
      data-testid="call-screen"
      data-phase={phase}
      data-hold={onHold}
    >
      <header className="call-header">
        <h2 id="call-title" tabIndex={-1} ref={heading}>
          <CallTitle call={call} />
        </h2>
        {!voice && <CallTimer since={call.answeredAt} running />}
        {call.room?.recorded && (
          <p className="recording" data-testid="recording">
            <span aria-hidden="true">●</span> {t('recording')}
          </p>
        )}
      </header>
      {phase === 'connecting' && !error && (
        <p role="status" aria-live="polite">
          {t('connectingMedia')}
        </p>
      )}
      {media?.status === 'reconnecting' && <p role="status">{t('mediaReconnecting')}</p>}
      {guestAway && (
        // decision 0025: the guest's page reloads, its network changed, or it closed.
        <p role="status" data-testid="guest-link" data-state={guestGone ? 'gone' : 'reconnecting'}>
          {t(guestGone ? 'guestGone' : 'guestReconnecting')}
        </p>
      )}
      {onHold && <p role="status">{t('onHold')}</p>}
      {error && <p role="alert">{error}</p>}
      {voice ? (
        <VoiceStage
          callId={call.callId}
          guestNick={call.guestJabberUsername}
          feeds={feeds}
          timer={<CallTimer since={call.answeredAt} running />}
        />
      ) : (
        <div className="tiles">
          {feeds.map((feed) => (
            <MediaTile
              key={feed.janusId}
              streamKey={feed.janusId}
              label={t('guestVideo')}
              testId="remote-video"
            />
          ))}
          {feeds.length === 0 && phase === 'active' && <p>{t('waitingForGuestMedia')}</p>}
          <MediaTile streamKey={LOCAL_STREAM} label={t('yourVideo')} muted testId="local-video" />
        </div>
      )}
      {/* A held guest's microphone is off because of the hold, which the status above says. */}
      {!onHold && feeds.some((feed) => feed.audioMuted) && <p>{t('guestMuted')}</p>}
      <CallControls label={title} />
      <Devices voice={voice} />
      <dl className="quality" aria-label={t('quality')}>
        <Quality direction="send" label={t('qualitySend')} quality={media?.quality.send ?? null} />
        <Quality
          direction="receive"
          label={t('qualityReceive')}
          quality={guestAway ? null : (media?.quality.receive ?? null)}
        />
      </dl>
      <CallNotes />
    </section>
  );
}
