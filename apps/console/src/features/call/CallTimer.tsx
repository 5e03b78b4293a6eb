import { t } from '../../i18n/messages.ts';
import { elapsed, useNow } from '../queue/useNow.ts';

/**
 * The call's time (`m:ss`) since `since`, when the API recorded the call answered — so a console
 * reloaded mid-call counts on from the answer, not from its reload (decision 0027) — counting
 * while `running`; stopped, it shows the time it had when it stopped. A `timer` role: screen
 * readers read it when asked, not each second.
 */
export function CallTimer({ since, running }: { since: string; running: boolean }) {
  const now = useNow(running ? 1000 : 3_600_000);
  return (
    <p className="call-timer" role="timer" aria-label={t('callTime')} data-testid="call-timer">
      <span aria-hidden="true">⏱ </span>
      <time dateTime={`PT${Math.max(0, Math.floor((now - Date.parse(since)) / 1000))}S`}>
        {elapsed(since, now)}
      </time>
    </p>
  );
}
