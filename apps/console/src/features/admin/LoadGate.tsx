import { useEffect, useState, type ReactNode } from 'react';
import { describeError } from '../../app/errors.ts';
import { t, type MessageKey } from '../../i18n/messages.ts';
import { ErrorState, LoadingState } from '../../ui/ListState.tsx';

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

  if (loaded.state === 'loaded') return props.children(loaded.data);
  return (
    <LoadStatus
      className="admin-status"
      loading={t(props.loading)}
      failure={loaded.state === 'failed' ? t(props.failed, { reason: loaded.message }) : null}
      onRetry={() => {
        setLoaded({ state: 'loading' });
        setAttempt((n) => n + 1);
      }}
    />
  );
}

/**
 * An admin page's data on its way (`loading`, a busy status with a spinner), or why it did not
 * come (`failure`, an alert) with a Retry: the console's shared list states (ui/ListState.tsx).
 */
export function LoadStatus(props: {
  loading: string;
  failure: string | null;
  onRetry: () => void;
  className?: string;
}) {
  if (props.failure === null) {
    return <LoadingState label={props.loading} className={props.className} />;
  }
  return <ErrorState message={props.failure} onRetry={props.onRetry} className={props.className} />;
}
