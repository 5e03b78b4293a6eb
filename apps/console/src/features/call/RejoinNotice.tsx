import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { t } from '../../i18n/messages.ts';
import { rejoinNoticeDismissed } from './callSlice.ts';

/**
 * A console reloaded mid-call (decision 0027): "Taking your call up again…" until the call is
 * back, or why it could not be (the call over meanwhile), until the agent dismisses it.
 */
export function RejoinNotice() {
  const dispatch = useAppDispatch();
  const rejoin = useAppSelector((state) => state.call.rejoin);
  if (!rejoin) return null;
  if (rejoin.status === 'rejoining') {
    return (
      <p role="status" aria-live="polite" className="banner" data-testid="call-rejoin">
        {t('callRejoining')}
      </p>
    );
  }
  return (
    <p role="alert" className="banner" data-testid="call-rejoin" data-state="failed">
      {rejoin.message}{' '}
      <button type="button" className="secondary" onClick={() => dispatch(rejoinNoticeDismissed())}>
        {t('dismiss')}
      </button>
    </p>
  );
}
