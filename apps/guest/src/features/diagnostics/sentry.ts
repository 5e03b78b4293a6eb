import {
  browserTracingIntegration,
  captureException,
  init,
  replayIntegration,
} from '@sentry/react';
import type { ErrorReportingSettings } from './errorReporting.ts';

/**
 * The error-reporting SDK at spec §9's settings, through our own tunnel (spec §7). Its own
 * chunk, fetched only when {@link errorReportingOnDemand} asks for it: on the page's first error
 * or when a call starts. Guest names, chat text and form answers are masked in replays.
 * `earlier`: the errors the page met before, sent as the uncaught errors they were.
 */
export function startSentry(settings: ErrorReportingSettings, earlier: readonly unknown[]) {
  // Named, not the namespace: the bundler then leaves out what the page never calls (the
  // feedback widget, canvas replay, React components), about half the SDK's chunk.
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
  for (const error of earlier) {
    captureException(error, { mechanism: { type: 'onerror', handled: false } });
  }
}
