/**
 * Test doubles of the REST client, for the apps' tests (subpath `@frontdesk/protocol/testing`):
 * a fake that implements the same {@link ApiClient} interface, answering from a table.
 */
import {
  ApiRequestError,
  type ApiClient,
  type FileDownloader,
  type RouteAnswer,
} from './client.ts';
import { routeStatuses, routeUrl } from './routes.ts';

/** One answer of the fake API: the response body, a file's text (downloads), or a refusal. */
export type FakeAnswer = { body: unknown } | { file: string } | { refuse: ApiRequestError };

/**
 * An API whose answers the test names by `METHOD path` (the route's path filled in, with its
 * query); every request is recorded, with the `If-Match` version it would send when it has one.
 * The answer is parsed with the route's response schema, as the real client does.
 */
export function fakeApi(answers: Record<string, FakeAnswer>) {
  const requests: { route: string; body: unknown; ifMatch?: number; keepalive?: true }[] = [];
  const api: ApiClient = async (route, ...[options]) => {
    const { params, query, body, ifMatch, keepalive } = (options ?? {}) as {
      params?: Record<string, unknown>;
      query?: Record<string, unknown>;
      body?: unknown;
      ifMatch?: number;
      keepalive?: boolean;
    };
    const name = `${route.method} ${routeUrl(route, params, query)}`;
    requests.push({
      route: name,
      body,
      ...(ifMatch === undefined ? {} : { ifMatch }),
      ...(keepalive ? { keepalive: true as const } : {}),
    });
    const answer = answers[name];
    if (!answer) throw new Error(`unexpected request ${name}`);
    if ('refuse' in answer) throw answer.refuse;
    if (!('body' in answer)) throw new Error(`${name} answers a file: download it`);
    // As the real client reads it: a 204's missing body is null.
    const empty = answer.body === undefined && routeStatuses(route).includes(204);
    return route.response.parse(empty ? null : answer.body) as RouteAnswer<typeof route>;
  };
  /** Downloads from the same table: the whole file arrives in one progress step. */
  const download: FileDownloader = async (route, options) => {
    const { params, query, onProgress } = options as typeof options & {
      params?: Record<string, unknown>;
      query?: Record<string, unknown>;
    };
    const name = `${route.method} ${routeUrl(route, params, query)}`;
    requests.push({ route: name, body: undefined });
    const answer = answers[name];
    if (!answer) throw new Error(`unexpected download ${name}`);
    if ('refuse' in answer) throw answer.refuse;
    if (!('file' in answer)) throw new Error(`${name} answers JSON, not a file`);
    const file = new Blob([answer.file], { type: 'text/csv' });
    onProgress?.({ loaded: file.size, total: file.size });
    return file;
  };
  return { api, download, requests };
}

/** A success as the API wraps it (docs/architecture.md: `{ data: … }`). */
export const answer = (data: unknown) => ({ body: { data } });

export const refusal = (status: number, code: string, message = code) =>
  ({ refuse: new ApiRequestError(status, code, message) }) as const;

/** A memory Storage, as a browser's localStorage or sessionStorage behaves (tests only). */
export function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}
