import { useEffect, useState, type ReactNode } from 'react';
import { describeError } from '../../app/errors.ts';
import { t, type MessageKey } from '../../i18n/messages.ts';

type Loaded<T> =
  { state: 'loading' } | { state: 'failed'; message: string } | { state: 'loaded'; data: T };

/**
 * What an admin page loads before its form can show: "Loading…" meanwhile, the reason and a
 * Retry when it fails, then the page itself. `load` is called again whenever it changes.
 */
export function LoadGate<T>(props: {
  load: () => Promise<T>;
  loading: MessageKey;
  failed: MessageKey;
  children: (data: T) => ReactNode;
}) {
  const { load } = props;
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });

  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setLoaded({ state: 'loaded', data }),
      (error: unknown) => current && setLoaded({ state: 'failed', message: describeError(error) }),
    );
    return () => {
      current = false;
    };
  }, [load, attempt]);

  if (loaded.state === 'loading') {
    return (
      <p role="status" className="admin-status">
        {t(props.loading)}
      </p>
    );
  }
  if (loaded.state === 'failed') {
    return (
      <div role="alert" className="banner admin-status">
        {t(props.failed, { reason: loaded.message })}
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setLoaded({ state: 'loading' });
            setAttempt((n) => n + 1);
          }}
        >
          {t('retry')}
        </button>
      </div>
    );
  }
  return props.children(loaded.data);
}
