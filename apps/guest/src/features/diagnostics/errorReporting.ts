import type { ClientConfig } from '@frontdesk/protocol';
import type { RootState } from '../../app/store.ts';

export type ErrorReportingSettings = NonNullable<ClientConfig['errorReporting']>;

/**
 * Whether the page's errors may leave it (docs/privacy.md, decision 0030): `pending` holds them
 * (the company is not known yet, or it asks for consent and the guest has not given it),
 * `refused` drops them (the guest declined), `given` lets them go.
 */
export type ReportingConsent = 'pending' | 'given' | 'refused';

/**
 * The consent that error reporting waits for. A company that asks for it has it once the guest
 * is signed in: the API signs in only a guest that consented (decision 0030). Until the company's
 * details come, the page cannot know whether it asks.
 */
export function reportingConsent(state: RootState): ReportingConsent {
  const company = state.company.details;
  if (!company) return 'pending';
  if (!company.consentRequired || state.guestAuth.access_token) return 'given';
  return state.flow.stage === 'consentDeclined' ? 'refused' : 'pending';
}

const HELD_ERRORS_MAX = 20;

/**
 * Browser error reporting, loaded on demand (decision 0042). Before a call the page keeps only
 * these listeners, which hold the errors it meets; the SDK (./sentry.ts, about 86 KB gzipped)
 * loads on the first error, which it then sends, or when a call starts, whose tracing and session
 * replay it records. Pages without a call and without an error never download it. Listening
 * starts with the page, before `GET /api/config` says whether reporting is on (`configure`) and
 * before the guest's consent is known (`consent`): nothing loads or leaves the page until both
 * allow it.
 */
export function errorReportingOnDemand(
  target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window,
) {
  const earlier: unknown[] = [];
  let settings: ErrorReportingSettings | null | undefined;
  let consent: ReportingConsent = 'pending';
  let wanted = false;
  let loading: Promise<void> | undefined;

  // A page failing in a loop before it may report holds its first errors only; a guest who
  // declined has none of them kept.
  const keep = (error: unknown) => {
    if (consent === 'refused') return;
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
    if (!settings || consent !== 'given' || loading) return;
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
    /** The guest's consent as it stands ({@link reportingConsent}); told on every change of state. */
    consent(value: ReportingConsent) {
      if (value === consent) return;
      consent = value;
      if (value === 'refused') {
        // Declined: what was held is forgotten, and nothing asks for the SDK any more.
        earlier.length = 0;
        wanted = false;
      } else if (value === 'given' && wanted) load();
    },
    /** A call starts: its tracing and replay are recorded. */
    callStarts: load,
  };
}
