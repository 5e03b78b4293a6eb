import { useEffect, useState } from 'react';
import { routes, type Health } from '@frontdesk/protocol';
import { describeError } from '../../app/errors.ts';
import { useAppSelector, useAppStore } from '../../app/hooks.ts';
import { useServices } from '../../app/servicesContext.ts';

export type HealthView =
  { state: 'loading' } | { state: 'loaded'; health: Health } | { state: 'failed'; message: string };

/**
 * `GET /api/health` once per mount: whether the services a call needs are running. Signed in,
 * it sends the token and gets each service's state; signed out, only up or down.
 */
export function useHealth(): HealthView {
  const { api } = useServices();
  const signedIn = useAppSelector((state) => state.auth.login !== null);
  const store = useAppStore();
  const [view, setView] = useState<HealthView>({ state: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    // Read at the request, not at render: the token is renewed while the page is open.
    const token = store.getState().auth.login?.access_token;
    api(routes.health, { signal: controller.signal, token })
      .then((health) => setView({ state: 'loaded', health }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setView({ state: 'failed', message: describeError(error) });
      });
    return () => controller.abort();
  }, [api, signedIn, store]);
  return view;
}
