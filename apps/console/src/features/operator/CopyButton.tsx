import { useState } from 'react';
import { t } from '../../i18n/messages.ts';

/**
 * Copies `text` and says so in a polite live region beside the button; where the browser refuses
 * (no clipboard outside a secure page, or no permission) it says to select the text instead.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [result, setResult] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = () => {
    // `navigator.clipboard` is missing outside a secure page: a refusal like any other.
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(text))
      .then(
        () => setResult('copied'),
        () => setResult('failed'),
      );
  };
  return (
    <span className="operator-copy">
      <button type="button" className="secondary" onClick={copy}>
        {label}
      </button>
      <span aria-live="polite">
        {result === 'copied' ? t('copied') : result === 'failed' ? t('copyFailed') : ''}
      </span>
    </span>
  );
}
