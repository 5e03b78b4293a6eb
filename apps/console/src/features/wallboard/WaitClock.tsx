import { t } from '../../i18n/messages.ts';
import { elapsed, useNow } from '../queue/useNow.ts';

/**
 * A wait counting up every second from `since` on this browser's clock set to the API's; each
 * clock renders alone, so the rest of the board does not re-render every second.
 */
export function WaitClock({
  since,
  clockOffsetMs,
}: {
  since: string | null;
  clockOffsetMs: number;
}) {
  const now = useNow() + clockOffsetMs;
  if (since === null) {
    return (
      <span>
        <span aria-hidden="true">–</span>
        <span className="visually-hidden">{t('wallboardNobodyWaiting')}</span>
      </span>
    );
  }
  return <time dateTime={since}>{elapsed(since, now)}</time>;
}
