import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useT } from '../../i18n/useT.ts';
import { ChatPanel } from '../chat/ChatPanel.tsx';
import { hangUp } from './callFlow.ts';
import { SelfView } from './StreamVideo.tsx';

/**
 * spec §2 stage "waiting": the company's waiting message and picture, the guest's place in the
 * queue with an estimated wait, the guest's own camera, a chat with the agents, and a way out.
 */
export function WaitingPage() {
  const t = useT();
  const dispatch = useAppDispatch();
  const company = useAppSelector((state) => state.company.details);
  const call = useAppSelector((state) => state.call);
  if (!company) return null;
  const ready = call.connection.media === 'connected' && call.connection.chat === 'connected';
  const minutes = call.queue ? Math.ceil(call.queue.estimatedWaitMs / 60_000) : null;
  return (
    <section className="card waiting" data-testid="stage-waiting" aria-labelledby="waiting-title">
      <h1 id="waiting-title">{t('waitingTitle')}</h1>
      <p>{company.waitingMsg ?? t('waitingDefault')}</p>
      {company.waitingImageUrl && (
        <img className="waiting-image" src={company.waitingImageUrl} alt="" />
      )}
      <div role="status" aria-live="polite" className="queue" data-testid="queue-status">
        {!ready && (
          <p className="loading-inline">
            <span className="spinner" aria-hidden="true" />
            {t('settingUp')}
          </p>
        )}
        {ready && call.queue && (
          <>
            <p data-testid="queue-position" data-position={call.queue.position}>
              {call.queue.position === 1
                ? t('queueNext')
                : t('queuePosition', { position: call.queue.position })}
            </p>
            <p>
              {minutes && minutes > 1 ? t('estimatedWait', { minutes }) : t('estimatedWaitSoon')}
            </p>
          </>
        )}
      </div>
      {call.callType === 'video' && <SelfView className="waiting-self" label={t('yourCamera')} />}
      <ChatPanel />
      <button type="button" className="button-secondary" onClick={() => void dispatch(hangUp())}>
        {t('cancelCall')}
      </button>
    </section>
  );
}
