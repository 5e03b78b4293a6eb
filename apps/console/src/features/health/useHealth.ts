import { useEffect, useState } from 'react';
import { healthSchema, type Health } from '@frontdesk/protocol';
import { describeError } from '../../app/errors.ts';
import { useServices } from '../../app/servicesContext.ts';

export type HealthView =
  { state: 'loading' } | { state: 'loaded'; health: Health } | { state: 'failed'; message: string };

/** `GET /api/health` once per mount: whether the services a call needs are running. */
export function useHealth(): HealthView {
  const { api } = useServices();
  const [view, setView] = useState<HealthView>({ state: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    api('/health', healthSchema, { signal: controller.signal, alsoAccept: [503] })
      .then((health) => setView({ state: 'loaded', health }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setView({ state: 'failed', message: describeError(error) });
      });
    return () => controller.abort();
  }, [api]);
  return view;
}
