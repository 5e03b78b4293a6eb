import { useState } from 'react';
import { t } from '../i18n/messages.ts';
import './copy.css';

/**
 * Copies `text` to the clipboard and says so beside the button (a polite live region). Where the
 * browser refuses (no permission, not a secure page) it says to select the text instead.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <span className="copy">
      <button
        type="button"
        className="secondary"
        onClick={() => {
          // Outside a secure page `navigator.clipboard` is missing: a refusal like any other.
          Promise.resolve()
            .then(() => navigator.clipboard.writeText(text))
            .then(
              () => setState('copied'),
              () => setState('failed'),
            );
        }}
      >
        {label}
      </button>
      <span aria-live="polite" className="copy-note">
        {state === 'copied' ? t('copied') : state === 'failed' ? t('copyFailed') : ''}
      </span>
    </span>
  );
}
