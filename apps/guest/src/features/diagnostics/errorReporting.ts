import type { ClientConfig } from '@frontdesk/protocol';

export type ErrorReportingSettings = NonNullable<ClientConfig['errorReporting']>;

const HELD_ERRORS_MAX = 20;

/**
 * Browser error reporting, loaded on demand (decision 0042). Before a call the page keeps only
 * these listeners, which hold the errors it meets; the SDK (./sentry.ts, about 86 KB gzipped)
 * loads on the first error, which it then sends, or when a call starts, whose tracing and session
 * replay it records. Pages without a call and without an error never download it. Listening
 * starts with the page, before `GET /api/config` says whether reporting is on (`configure`).
 */
export function errorReportingOnDemand(
  target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window,
) {
  const earlier: unknown[] = [];
  let settings: ErrorReportingSettings | null | undefined;
  let wanted = false;
  let loading: Promise<void> | undefined;

  // A page failing in a loop before its configuration arrives holds its first errors only.
  const keep = (error: unknown) => {
    if (earlier.length < HELD_ERRORS_MAX) earlier.push(error);
    load();
  };
  const keepError = (event: Event) => {
    if (event instanceof ErrorEvent) keep(event.error ?? event.message);
  };
  const keepRejection = (event: Event) => {
    if (event instanceof PromiseRejectionEvent) keep(event.reason);
  };
  const stopListening = () => {
    target.removeEventListener('error', keepError);
    target.removeEventListener('unhandledrejection', keepRejection);
  };
  function load() {
    wanted = true;
    if (!settings || loading) return;
    const on = settings;
    loading = import('./sentry.ts').then(
      ({ startSentry }) => {
        // From here the SDK's own handlers see the page's errors.
        stopListening();
        startSentry(on, earlier.splice(0));
      },
      // The SDK's chunk did not load (offline, a new build): the page goes on without it, and
      // keeps no more of its errors.
      () => {
        stopListening();
        earlier.length = 0;
      },
    );
  }

  target.addEventListener('error', keepError);
  target.addEventListener('unhandledrejection', keepRejection);
  return {
    /** What `GET /api/config` says: null when the installation has no DSN. */
    configure(value: ErrorReportingSettings | null) {
      settings = value;
      if (!value) {
        stopListening();
        earlier.length = 0;
      } else if (wanted) load();
    },
    /** A call starts: its tracing and replay are recorded. */
    callStarts: load,
  };
}
