import { createApiClient } from '@frontdesk/protocol';

/** The guest app's single REST client (served from the same origin as the API). */
export const api = createApiClient('/api');
export type { ApiClient } from '@frontdesk/protocol';
