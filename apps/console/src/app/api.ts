import { createBrowserApiClient } from '@frontdesk/protocol/browser';
import { z } from 'zod';

/** The console's single REST client (served from the same origin as the API). */
export const api = createBrowserApiClient('/api');
export type { ApiClient } from '@frontdesk/protocol';

/** The answer of routes that answer 204: no body at all. */
export const noContent = z.undefined();
