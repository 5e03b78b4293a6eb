import { useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { t } from '../../i18n/messages.ts';
import { endClicked, holdClicked, muteToggled, resumeClicked } from './callSlice.ts';
import { TransferForm } from './TransferForm.tsx';

/** The call's control row: microphone, camera, hold/resume, transfer and end. */
export function CallControls({ label }: { label: string }) {
  const dispatch = useAppDispatch();
  const { call, media, onHold, pending } = useAppSelector((state) => state.call);
  const [transferring, setTransferring] = useState(false);
  if (!call) return null;
  const audioMuted = media?.local.audioMuted ?? false;
  const videoMuted = media?.local.videoMuted ?? false;
  return (
    <>
      <div className="controls" role="group" aria-label={label}>
        <button
          type="button"
          aria-pressed={audioMuted}
          onClick={() => dispatch(muteToggled('audio'))}
        >
          {audioMuted ? t('unmuteMicrophone') : t('muteMicrophone')}
        </button>
        {call.callType !== 'voice' && (
          <button
            type="button"
            aria-pressed={videoMuted}
            onClick={() => dispatch(muteToggled('video'))}
          >
            {videoMuted ? t('startCamera') : t('stopCamera')}
          </button>
        )}
        <button
          type="button"
          disabled={pending !== null}
          onClick={() => dispatch(onHold ? resumeClicked() : holdClicked())}
        >
          {onHold ? t('resume') : t('hold')}
        </button>
        <button type="button" disabled={pending !== null} onClick={() => setTransferring(true)}>
          {t('transfer')}
        </button>
        <button
          type="button"
          className="danger"
          disabled={pending !== null}
          onClick={() => dispatch(endClicked())}
        >
          {pending === 'end' ? t('ending') : t('endCall')}
        </button>
      </div>
      {transferring && <TransferForm onCancel={() => setTransferring(false)} />}
    </>
  );
}
