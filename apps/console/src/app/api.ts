import { createBrowserApiClient, createBrowserFileDownloader } from '@frontdesk/protocol/browser';

/** The console's single REST client (served from the same origin as the API). */
export const api = createBrowserApiClient('/api');
/** Its downloads of files, with the same base. */
export const downloadFile = createBrowserFileDownloader('/api');
export type { ApiClient } from '@frontdesk/protocol';
