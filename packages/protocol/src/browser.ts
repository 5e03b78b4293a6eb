/**
 * The browser's side of the REST client: the apps' only use of XMLHttpRequest and sendBeacon
 * (lint forbids them, and fetch, anywhere else in the apps).
 */
import type { z } from 'zod';
import {
  createApiClient,
  refusalError,
  unreachable,
  type FileDownloader,
  type ProgressTransport,
} from './client.ts';
import { routeUrl, type Route } from './routes.ts';

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** A multipart upload with progress, through XMLHttpRequest. */
const withProgress: ProgressTransport = (url, form, headers, options) =>
  new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(options.method, url);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onUploadProgress(event.loaded / event.total);
    };
    request.onerror = () => reject(unreachable('XMLHttpRequest failed'));
    request.onabort = () => reject(unreachable('aborted'));
    request.onload = () =>
      resolve({ status: request.status, payload: parseJson(request.responseText) });
    options.signal?.addEventListener('abort', () => request.abort());
    request.send(form);
  });

/** The apps' REST client: JSON, multipart forms, and uploads with progress. */
export const createBrowserApiClient = (baseUrl: string) =>
  createApiClient(baseUrl, { withProgress });

/**
 * The apps' file downloads (see {@link FileDownloader}), through XMLHttpRequest for its progress
 * events: a streamed export has no length to show a bar of, but its bytes so far can be told.
 */
export const createBrowserFileDownloader =
  (baseUrl: string): FileDownloader =>
  (route, options) =>
    new Promise((resolve, reject) => {
      const { params, query, token, signal, onProgress } = options as typeof options & {
        params?: Record<string, unknown>;
        query?: Record<string, unknown>;
      };
      const request = new XMLHttpRequest();
      request.open(route.method, `${baseUrl}${routeUrl(route, params, query)}`);
      request.responseType = 'blob';
      if (token) request.setRequestHeader('authorization', `Bearer ${token}`);
      request.onprogress = (event) =>
        onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : null });
      request.onerror = () => reject(unreachable('XMLHttpRequest failed'));
      request.onabort = () => reject(unreachable('aborted'));
      request.onload = () => {
        const file = request.response as Blob;
        if (request.status >= 200 && request.status < 300) return resolve(file);
        // A refusal comes as JSON, read from the file it was received as.
        void file.text().then(
          (text) => reject(refusalError(request.status, parseJson(text))),
          () => reject(refusalError(request.status, undefined)),
        );
      };
      signal?.addEventListener('abort', () => request.abort());
      request.send();
    });

/**
 * Calls a POST route whose JSON body must outlive the page (on `pagehide`):
 * `navigator.sendBeacon`, which can set no header, so the body goes as text/plain and carries its
 * own token (the API reads such a body as JSON). Answers whether the browser queued it.
 */
export function sendBeacon<R extends Route & { method: 'POST'; body: z.ZodType }>(
  baseUrl: string,
  route: R,
  body: z.input<R['body']>,
): boolean {
  return navigator.sendBeacon(
    `${baseUrl}${routeUrl(route)}`,
    new Blob([JSON.stringify(body)], { type: 'text/plain' }),
  );
}
export { claimTabLock, type TabLock } from './tab-lock.ts';
