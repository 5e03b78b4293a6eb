import { useAppSelector } from '../../app/hooks.ts';
import { useT } from '../../i18n/useT.ts';

/**
 * How the call ended, in words, when the guest did not end it (decision 0025): the agent hung up,
 * or the agent's connection was lost (gone from both the chat and the media server).
 */
export function CallEndNotice() {
  const t = useT();
  const notice = useAppSelector((state) => state.call.endNotice);
  if (!notice) return null;
  return (
    <p className="call-end-notice" role="status" data-testid="call-end-notice" data-notice={notice}>
      {t(notice === 'agentGone' ? 'endAgentGone' : 'endAgentEnded')}
    </p>
  );
}
