import { useEffect, useState } from 'react';
import { ApiRequestError, clientConfigSchema, envelope } from '@frontdesk/protocol';
import { api } from './api.ts';

export type ServiceStatus =
  { state: 'loading' } | { state: 'ready' } | { state: 'failed'; message: string };

/** Loads the client configuration; the first thing any page needs from the server. */
export function useServiceStatus(): ServiceStatus {
  const [status, setStatus] = useState<ServiceStatus>({ state: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    api('/config', envelope(clientConfigSchema), { signal: controller.signal })
      .then(() => setStatus({ state: 'ready' }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const message =
          error instanceof ApiRequestError ? error.message : 'The service is unavailable.';
        setStatus({ state: 'failed', message });
      });
    return () => controller.abort();
  }, []);
  return status;
}
