import { useState } from 'react';
import { t } from '../../i18n/messages.ts';
import { elapsed, useNow } from '../queue/useNow.ts';

const STARTS = 'frontdesk-call-start:';

/**
 * When this tab's agent took the call: remembered in the tab's sessionStorage, so a reload in
 * the call keeps counting from the claim rather than from zero.
 */
function callStart(callId: string): string {
  const key = STARTS + callId;
  try {
    const kept = sessionStorage.getItem(key);
    if (kept && !Number.isNaN(Date.parse(kept))) return kept;
    const now = new Date().toISOString();
    sessionStorage.setItem(key, now);
    return now;
  } catch {
    return new Date().toISOString();
  }
}

/**
 * The call's time (`m:ss`) since it was taken, counting while `running`; stopped, it shows the
 * time it had when it stopped. A `timer` role: screen readers read it when asked, not each second.
 */
export function CallTimer({ callId, running }: { callId: string; running: boolean }) {
  const [since] = useState(() => callStart(callId));
  const now = useNow(running ? 1000 : 3_600_000);
  const time = elapsed(since, now);
  return (
    <p className="call-timer" role="timer" aria-label={t('callTime')} data-testid="call-timer">
      <span aria-hidden="true">⏱ </span>
      <time dateTime={`PT${Math.floor((now - Date.parse(since)) / 1000)}S`}>{time}</time>
    </p>
  );
}
