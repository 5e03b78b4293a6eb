import type { ClientConfig } from '@frontdesk/protocol';

/**
 * Starts browser error reporting with session replay at spec §9's settings, through our own
 * tunnel (spec §7). Loaded only when the installation configures a DSN; otherwise nothing of the
 * SDK is downloaded. Guest names, chat text and form answers are masked in replays.
 */
export async function startErrorReporting(settings: NonNullable<ClientConfig['errorReporting']>) {
  // Named, not the namespace: the bundler then leaves out what the page never calls (the
  // feedback widget, canvas replay, React components), about half the SDK's chunk.
  const { browserTracingIntegration, init, replayIntegration } = await import('@sentry/react');
  init({
    dsn: settings.dsn,
    tunnel: settings.tunnel,
    tracesSampleRate: 1,
    replaysSessionSampleRate: 0.1,
    replaysOnErrorSampleRate: 1,
    integrations: [
      browserTracingIntegration(),
      replayIntegration({
        maskAllText: true,
        maskAllInputs: true,
        blockAllMedia: true,
        flushMinDelay: 5000,
        flushMaxDelay: 5500,
        minReplayDuration: 5000,
        maxReplayDuration: 60 * 60 * 1000,
        mutationLimit: 10_000,
        mutationBreadcrumbLimit: 750,
        slowClickTimeout: 7000,
      }),
    ],
  });
}
