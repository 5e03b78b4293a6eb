import { createServer, type IncomingMessage, type Server } from 'node:http';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helper.ts';

const envelopeFor = (dsn: string) =>
  `${JSON.stringify({ dsn, sent_at: new Date().toISOString() })}\n{"type":"event"}\n{"message":"boom"}\n`;

const post = (t: TestApp, payload: string | Buffer, ip = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/monitoring',
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
    payload,
    remoteAddress: ip,
  });

describe('POST /api/monitoring without SENTRY_DSN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers 404: the tunnel is off', async () => {
    const response = await post(t, envelopeFor('https://key@sentry.example/1'));
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('monitoring_disabled');
  });
});

describe('POST /api/monitoring keeping envelopes on disk', () => {
  const dsn = 'https://publickey@errors.frontdesk.example/3';
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ SENTRY_DSN: dsn });
  });
  afterAll(() => t.close());

  it('stores an envelope of the configured DSN in the data folder', async () => {
    const body = envelopeFor(dsn);
    const response = await post(t, body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { outcome: 'stored' } });
    const root = join(t.config.dataDir, 'monitoring');
    const [day] = await readdir(root);
    const [file] = await readdir(join(root, day ?? ''));
    const stored = join(root, day ?? '', file ?? '');
    expect(await readFile(stored, 'utf8')).toBe(body);
    // SECURITY: a report may carry what a guest typed: nobody but the owner reads it.
    expect((await stat(stored)).mode & 0o077).toBe(0);
    expect((await stat(join(root, day ?? ''))).mode & 0o077).toBe(0);
  });

  it('refuses an envelope for another project, key or host (400: no open relay)', async () => {
    for (const other of [
      'https://publickey@errors.frontdesk.example/4',
      'https://stolen@errors.frontdesk.example/3',
      'https://publickey@evil.example/3',
    ]) {
      const response = await post(t, envelopeFor(other));
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('dsn_mismatch');
    }
  });

  it('refuses what is no envelope (400)', async () => {
    for (const junk of ['', 'hello', '{"event_id":"1"}\n{}', '{"dsn":"not a dsn"}\n{}']) {
      const response = await post(t, junk);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_envelope');
    }
  });

  it('refuses an envelope over 10 MB (413)', async () => {
    const response = await post(t, envelopeFor(dsn) + 'x'.repeat(10 * 1024 * 1024));
    expect(response.statusCode).toBe(413);
  });

  it('limits the rate per address (429)', async () => {
    const answers = [];
    for (let i = 0; i < 61; i += 1)
      answers.push((await post(t, envelopeFor(dsn), '10.1.1.1')).statusCode);
    expect(answers.filter((s) => s === 200)).toHaveLength(60);
    expect(answers.at(-1)).toBe(429);
  });
});

describe('POST /api/monitoring forwarding upstream', () => {
  let t: TestApp;
  let upstream: Server;
  let port: number;
  let answer = { status: 200, headers: {} as Record<string, string> };
  const received: { url: string | undefined; type: string | undefined; body: string }[] = [];

  beforeAll(async () => {
    upstream = createServer(async (request: IncomingMessage, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      received.push({
        url: request.url,
        type: request.headers['content-type'],
        body: Buffer.concat(chunks).toString(),
      });
      response.writeHead(answer.status, answer.headers).end('{}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const address = upstream.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    port = address.port;
    t = await buildTestApp({
      SENTRY_DSN: `http://publickey@127.0.0.1:${port}/9`,
      SENTRY_FORWARD: 'true',
    });
  });
  afterAll(async () => {
    await t.close();
    upstream.close();
  });

  it('forwards the envelope as it came to the DSN’s envelope endpoint', async () => {
    const body = envelopeFor(`http://publickey@127.0.0.1:${port}/9`);
    const response = await post(t, body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { outcome: 'forwarded' } });
    expect(received.at(-1)).toEqual({
      url: '/api/9/envelope/',
      type: 'application/x-sentry-envelope',
      body,
    });
  });

  it("passes the upstream's rate limit on (429 with its headers)", async () => {
    answer = { status: 429, headers: { 'retry-after': '60', 'x-sentry-rate-limits': '60:error' } };
    const response = await post(t, envelopeFor(`http://publickey@127.0.0.1:${port}/9`));
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('60');
    expect(response.headers['x-sentry-rate-limits']).toBe('60:error');
  });

  it('answers 502 when the upstream refuses', async () => {
    answer = { status: 500, headers: {} };
    const response = await post(t, envelopeFor(`http://publickey@127.0.0.1:${port}/9`));
    expect(response.statusCode).toBe(502);
    expect(response.json().error.code).toBe('upstream_refused');
  });
});

describe('POST /api/monitoring with the upstream down', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Port 9 (discard) on loopback has no listener here: connections are refused at once.
    t = await buildTestApp({
      SENTRY_DSN: 'http://publickey@127.0.0.1:9/1',
      SENTRY_FORWARD: 'true',
    });
  });
  afterAll(() => t.close());

  it('answers 502 upstream_unreachable', async () => {
    const response = await post(t, envelopeFor('http://publickey@127.0.0.1:9/1'));
    expect(response.statusCode).toBe(502);
    expect(response.json().error.code).toBe('upstream_unreachable');
  });
});
