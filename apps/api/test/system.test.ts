import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientConfigSchema, envelope, healthSchema } from '@frontdesk/protocol';
import { buildTestApp, loginStaff, type TestApp } from './helper.ts';

/** A stand-in HTTP server on a free port that answers like the XMPP admin API and Janus `info`. */
async function listen(
  handler: Parameters<typeof createServer>[1],
): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { server, url: `http://127.0.0.1:${address.port}` };
}

describe('health and configuration', () => {
  let t: TestApp;
  let upstream: { server: Server; url: string };

  beforeAll(async () => {
    upstream = await listen((_req, res) => res.writeHead(200).end('{}'));
    t = await buildTestApp({
      XMPP_ADMIN_URL: `${upstream.url}/api`,
      JANUS_HTTP_URL: `${upstream.url}/janus`,
    });
  });
  afterAll(async () => {
    await t.close();
    upstream.server.close();
  });

  it('reports every dependency up when all answer', async () => {
    const token = await loginStaff(t.app, 'admin@frontdesk.demo');
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
    const health = healthSchema.parse(response.json());
    expect(health.status).toBe('up');
    expect(Object.values(health.dependencies ?? {}).map((d) => d.status)).toEqual([
      'up',
      'up',
      'up',
    ]);
  });

  it('tells the apps where the WebSockets are, on their own origin', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/config',
      headers: { host: 'frontdesk.example:8080' },
    });
    expect(response.statusCode).toBe(200);
    const { data } = envelope(clientConfigSchema).parse(response.json());
    expect(data.xmppWebsocketUrl).toBe('ws://frontdesk.example:8080/xmpp-websocket');
    expect(data.janusWebsocketUrl).toBe('ws://frontdesk.example:8080/janus-ws');
    // No DSN configured: error reporting stays off in the browser.
    expect(data.errorReporting).toBeNull();
  });

  it('answers unknown API paths with a JSON 404 naming the route', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: { code: 'not_found', message: 'No route GET /api/nothing-here.' },
    });
  });
});

describe('health with a dependency down', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Port 9 (discard) on loopback has no listener here: connections are refused at once.
    t = await buildTestApp({
      XMPP_ADMIN_URL: 'http://127.0.0.1:9/api',
      JANUS_HTTP_URL: 'http://127.0.0.1:9/janus',
    });
  });
  afterAll(() => t.close());

  it('answers 503 and, to staff, names what is down', async () => {
    const token = await loginStaff(t.app, 'ada@frontdesk.demo');
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(503);
    const { status, dependencies } = healthSchema.parse(response.json());
    expect(status).toBe('down');
    expect(dependencies?.database.status).toBe('up');
    expect(dependencies?.xmpp.status).toBe('down');
    expect(dependencies?.janus.status).toBe('down');
    expect(dependencies?.janus.error).toBeTruthy();
  });
});

describe('WebSocket gateway', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const upgrade = (headers: Record<string, string>) =>
    t.app.inject({
      method: 'GET',
      url: '/xmpp-websocket',
      headers: { connection: 'upgrade', upgrade: 'websocket', host: '127.0.0.1:8080', ...headers },
    });

  it('refuses a page of another origin (SECURITY: cross-site WebSocket hijacking)', async () => {
    const response = await upgrade({
      origin: 'https://evil.example',
      'sec-websocket-protocol': 'xmpp',
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('origin_not_allowed');
  });

  it('refuses a connection without the xmpp subprotocol', async () => {
    const response = await upgrade({ origin: 'http://127.0.0.1:8080' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('"xmpp"');
  });
});
