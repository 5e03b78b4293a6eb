import { useEffect, useState } from 'react';
import { ApiRequestError, healthSchema, type Health } from '@frontdesk/protocol';
import { api } from './api.ts';

type HealthView =
  { state: 'loading' } | { state: 'loaded'; health: Health } | { state: 'failed'; message: string };

const dependencyNames: Record<keyof Health['dependencies'], string> = {
  database: 'Database',
  xmpp: 'Chat server',
  janus: 'Media server',
};

/** The console's first screen: the services a call depends on. Sign-in and the queue come next. */
export function App() {
  const [view, setView] = useState<HealthView>({ state: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    api('/health', healthSchema, { signal: controller.signal, alsoAccept: [503] })
      .then((health) => setView({ state: 'loaded', health }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setView({
          state: 'failed',
          message: error instanceof ApiRequestError ? error.message : 'The service is unavailable.',
        });
      });
    return () => controller.abort();
  }, []);

  return (
    <main className="page" data-testid="console-page" data-service={view.state}>
      <h1>Frontdesk console</h1>
      {view.state === 'loading' && (
        <p role="status" aria-live="polite">
          Checking the services…
        </p>
      )}
      {view.state === 'failed' && <p role="alert">{view.message}</p>}
      {view.state === 'loaded' && (
        <table>
          <caption>Services</caption>
          <tbody>
            {Object.entries(view.health.dependencies).map(([key, dependency]) => (
              <tr key={key} data-testid={`dependency-${key}`} data-status={dependency.status}>
                <th scope="row">{dependencyNames[key as keyof Health['dependencies']]}</th>
                <td>
                  {dependency.status === 'up' ? 'Running' : `Down: ${dependency.error ?? ''}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
