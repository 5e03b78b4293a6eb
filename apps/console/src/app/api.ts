import { createApiClient } from '@frontdesk/protocol';

/** The console's single REST client (served from the same origin as the API). */
export const api = createApiClient('/api');
