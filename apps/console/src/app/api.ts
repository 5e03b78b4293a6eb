import { createApiClient } from '@frontdesk/protocol';
import { z } from 'zod';

/** The console's single REST client (served from the same origin as the API). */
export const api = createApiClient('/api');
export type { ApiClient } from '@frontdesk/protocol';

/**
 * A client for one multipart upload (`POST /upload/:type`, spec §7). The shared client only
 * sends JSON, so this one hands `form` to fetch itself and keeps the client's parsing and
 * error handling; fetch sets the multipart content type with its boundary.
 */
export function uploadClient(form: FormData) {
  return createApiClient('/api', (input, init) => fetch(input, { ...init, body: form }));
}

/** The answer of routes that answer 204: no body at all. */
export const noContent = z.undefined();
