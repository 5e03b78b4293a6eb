/**
 * Test doubles of the REST client, for the apps' tests (subpath `@frontdesk/protocol/testing`):
 * a fake that implements the same {@link ApiClient} interface, answering from a table.
 */
import { ApiRequestError, type ApiClient, type RouteAnswer } from './client.ts';
import { routeStatuses, routeUrl } from './routes.ts';

/** One answer of the fake API: the response body, or a refusal. */
export type FakeAnswer = { body: unknown } | { refuse: ApiRequestError };

/**
 * An API whose answers the test names by `METHOD path` (the route's path filled in, with its
 * query); every request is recorded, with the `If-Match` version it would send when it has one.
 * The answer is parsed with the route's response schema, as the real client does.
 */
export function fakeApi(answers: Record<string, FakeAnswer>) {
  const requests: { route: string; body: unknown; ifMatch?: number }[] = [];
  const api: ApiClient = async (route, ...[options]) => {
    const { params, query, body, ifMatch } = (options ?? {}) as {
      params?: Record<string, unknown>;
      query?: Record<string, unknown>;
      body?: unknown;
      ifMatch?: number;
    };
    const name = `${route.method} ${routeUrl(route, params, query)}`;
    requests.push({ route: name, body, ...(ifMatch === undefined ? {} : { ifMatch }) });
    const answer = answers[name];
    if (!answer) throw new Error(`unexpected request ${name}`);
    if ('refuse' in answer) throw answer.refuse;
    // As the real client reads it: a 204's missing body is null.
    const empty = answer.body === undefined && routeStatuses(route).includes(204);
    return route.response.parse(empty ? null : answer.body) as RouteAnswer<typeof route>;
  };
  return { api, requests };
}

/** A success as the API wraps it (docs/architecture.md: `{ data: … }`). */
export const answer = (data: unknown) => ({ body: { data } });

export const refusal = (status: number, code: string, message = code) =>
  ({ refuse: new ApiRequestError(status, code, message) }) as const;
