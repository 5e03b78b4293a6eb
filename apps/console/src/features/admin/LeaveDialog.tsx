import { useEffect, useId, useRef } from 'react';
import { t } from '../../i18n/messages.ts';

/**
 * "Leave without saving?": asked when a link would leave the settings with unsaved changes.
 * Staying is the safe answer, so it takes the focus and Escape chooses it.
 */
export function LeaveDialog({ onLeave, onStay }: { onLeave: () => void; onStay: () => void }) {
  const id = useId();
  const stay = useRef<HTMLButtonElement>(null);
  useEffect(() => stay.current?.focus(), []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onStay();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onStay]);
  return (
    <div className="dialog-backdrop">
      <div
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
        className="dialog card"
      >
        <h2 id={`${id}-title`}>{t('leaveTitle')}</h2>
        <p id={`${id}-text`}>{t('leaveText')}</p>
        <div className="actions">
          <button type="button" className="danger" onClick={onLeave}>
            {t('leave')}
          </button>
          <button type="button" ref={stay} onClick={onStay}>
            {t('stay')}
          </button>
        </div>
      </div>
    </div>
  );
}
