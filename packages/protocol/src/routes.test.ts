import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApiClient } from './client.ts';
import { adminRoutes } from './admin-routes.ts';
import { reportRoutes } from './report-routes.ts';
import { routes, routeUrl, type Route } from './routes.ts';

const table: [string, Route][] = Object.entries({ ...routes, ...reportRoutes, ...adminRoutes });

describe('route table', () => {
  it.each(table)('%s names a params schema for exactly its path segments', (_name, route) => {
    const segments = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]);
    const keys = route.params instanceof z.ZodObject ? Object.keys(route.params.shape) : [];
    expect(keys.sort()).toEqual(segments.sort());
  });

  it('fills the path and appends the query', () => {
    expect(routeUrl(routes.callRoom, { callId: 'a b' }, { webview: 'true' })).toBe(
      '/calls/a%20b/room?webview=true',
    );
    expect(routeUrl(routes.listCalls, undefined, { status: 'waiting', after: undefined })).toBe(
      '/calls?status=waiting',
    );
    expect(() => routeUrl(routes.callState)).toThrow(':callId');
  });
});

describe('typed client', () => {
  const answering = (status: number, body?: unknown) => {
    const sent: { url: string; init: RequestInit }[] = [];
    const fetch = async (url: string | URL | Request, init?: RequestInit) => {
      sent.push({ url: String(url), init: init ?? {} });
      return new Response(body === undefined ? null : JSON.stringify(body), { status });
    };
    return { api: createApiClient('/api', { fetch: fetch as typeof globalThis.fetch }), sent };
  };

  it("sends the route's method, path and JSON body, and parses the answer", async () => {
    const held = { data: { id: 7, callMethod: 'p2p' } };
    const { api, sent } = answering(201, held);
    const body = { origin_call_id: 'a', current_call_id: 'b', new_call_id: 'c' };
    await expect(api(routes.holdCall, { token: 't', body })).resolves.toEqual(held);
    expect(sent[0]?.url).toBe('/api/call-report/hold-call');
    expect(sent[0]?.init.method).toBe('POST');
    expect(sent[0]?.init.body).toBe(JSON.stringify(body));
    expect(sent[0]?.init.headers).toMatchObject({ authorization: 'Bearer t' });
  });

  it('reads a 204 as null, and a status the route names (health 503) as its answer', async () => {
    await expect(answering(204).api(routes.logout, { token: 't' })).resolves.toBeNull();
    await expect(answering(503, { status: 'down' }).api(routes.health)).resolves.toEqual({
      status: 'down',
    });
  });

  it('turns an error body into an ApiRequestError', async () => {
    const { api } = answering(409, { error: { code: 'already_claimed', message: 'taken' } });
    await expect(
      api(routes.claimCall, { body: { guestUsername: 'x', categoryId: 1 } }),
    ).rejects.toMatchObject({ status: 409, code: 'already_claimed' });
  });
});
