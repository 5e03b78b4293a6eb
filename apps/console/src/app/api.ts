import { createBrowserApiClient } from '@frontdesk/protocol/browser';

/** The console's single REST client (served from the same origin as the API). */
export const api = createBrowserApiClient('/api');
export type { ApiClient } from '@frontdesk/protocol';
