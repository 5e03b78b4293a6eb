// Public mode's HTTPS front: the rendered Caddyfile, the certificate checks, and a real Caddy
// with a test authority's certificate in front of a small upstream that shows what it receives.
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import {
  checkSiteCertificate,
  isCaddyOf,
  renderCaddyfile,
  startCaddy,
  type RunningCaddy,
} from '../src/caddy.ts';
import { freePort, processInfo } from '../src/process.ts';
import { Supervised } from '../src/supervise.ts';
import { makeTestCertificates, type TestCertificates } from '../src/test-certificates.ts';
import { tempDir } from './helpers.ts';

const HOST = 'calls.frontdesk.test';
let dir: Awaited<ReturnType<typeof tempDir>>;
let certs: TestCertificates;

beforeAll(async () => {
  dir = await tempDir('frontdesk-caddy-');
  certs = makeTestCertificates(dir.path, [HOST]);
});
afterAll(() => dir?.remove());

describe('renderCaddyfile', () => {
  const base = {
    host: HOST,
    httpPort: 80,
    upstreamPort: 8080,
    storageDir: '/srv/x/caddy/data',
    adminSocket: '/srv/x/caddy/admin.sock',
  };

  it('serves the host with the given certificate, admin only on its socket, to the API on loopback', () => {
    const text = renderCaddyfile({
      ...base,
      httpsPort: 443,
      tls: { certFile: '/srv/x/site.crt', keyFile: '/srv/x/site.key' },
    });
    expect(text).toMatch(/^\tadmin unix\/\/srv\/x\/caddy\/admin\.sock$/m);
    expect(text).toMatch(/^calls\.frontdesk\.test \{$/m);
    expect(text).toMatch(/^\ttls \/srv\/x\/site\.crt \/srv\/x\/site\.key$/m);
    expect(text).toMatch(/^\treverse_proxy 127\.0\.0\.1:8080$/m);
    expect(text).not.toMatch(/^\s*email /m);
  });

  it('uses ACME without certificate files, with the account e-mail when given', () => {
    const text = renderCaddyfile({ ...base, httpsPort: 8443, acmeEmail: 'ops@example.com' });
    expect(text).not.toMatch(/^\s*tls /m);
    expect(text).toMatch(/^\temail ops@example\.com$/m);
    expect(text).toMatch(/^calls\.frontdesk\.test:8443 \{$/m);
  });

  it("is a configuration Caddy reads: ACME's issuers, admin on a Unix socket only, TCP only", () => {
    // ACME itself needs the internet (Let's Encrypt must reach port 80): here only its set-up.
    const file = join(dir.path, 'acme.Caddyfile');
    writeFileSync(file, renderCaddyfile({ ...base, httpsPort: 443, acmeEmail: 'ops@example.com' }));
    const json = JSON.parse(
      execFileSync('caddy', ['adapt', '--config', file, '--adapter', 'caddyfile'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    ) as {
      admin: { disabled?: boolean; listen: string };
      apps: {
        http: { servers: Record<string, { listen: string[]; protocols: string[] }> };
        tls: { automation: { policies: { subjects: string[]; issuers: { module: string }[] }[] } };
      };
    };
    expect(json.admin).toEqual({ listen: 'unix//srv/x/caddy/admin.sock' });
    expect(Object.values(json.apps.http.servers)).toEqual([
      expect.objectContaining({ listen: [':443'], protocols: ['h1', 'h2'] }),
    ]);
    expect(json.apps.tls.automation.policies).toEqual([
      expect.objectContaining({
        subjects: [HOST],
        issuers: expect.arrayContaining([expect.objectContaining({ module: 'acme' })]),
      }),
    ]);
  });

  it('refuses what could break out of a Caddyfile token or block', () => {
    for (const host of ['calls example.com', 'calls.example.com{', 'a}b', '']) {
      expect(() => renderCaddyfile({ ...base, host, httpsPort: 443 })).toThrow(/host name/);
    }
    expect(() =>
      renderCaddyfile({ ...base, httpsPort: 443, acmeEmail: 'x@y.z }\nadmin :2019' }),
    ).toThrow(/e-mail/);
    expect(() =>
      renderCaddyfile({
        ...base,
        httpsPort: 443,
        tls: { certFile: '/a b/site.crt', keyFile: '/srv/site.key' },
      }),
    ).toThrow(/quote, backslash or newline/);
  });
});

describe('checkSiteCertificate', () => {
  it('accepts a certificate for the host with its key, and says when it ends', () => {
    const info = checkSiteCertificate({ certFile: certs.certFile, keyFile: certs.keyFile }, HOST);
    expect(info.validTo.getTime()).toBeGreaterThan(Date.now());
    expect(info.issuer).toContain('Frontdesk test authority');
  });

  it('refuses another host, a key of another certificate, an expired one, or no PEM', () => {
    const tls = { certFile: certs.certFile, keyFile: certs.keyFile };
    expect(() => checkSiteCertificate(tls, 'other.example.com')).toThrow(/not for other/);
    expect(() => checkSiteCertificate({ ...tls, keyFile: join(dir.path, 'ca.key') }, HOST)).toThrow(
      /not the key/,
    );
    expect(() => checkSiteCertificate({ ...tls, certFile: tls.keyFile }, HOST)).toThrow(
      /not a readable PEM certificate/,
    );
    vi.useFakeTimers({ now: Date.now() + 3 * 24 * 3600 * 1000 });
    try {
      expect(() => checkSiteCertificate(tls, HOST)).toThrow(/expired/);
    } finally {
      vi.useRealTimers();
    }
  });
});

/** A request as a browser at `address` would send it to Caddy, trusting only the test authority. */
function httpsGet(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  localAddress?: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((done, fail) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        servername: HOST,
        ca: certs.ca,
        headers: { host: `${HOST}:${port}`, ...headers },
        ...(localAddress ? { localAddress } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          done({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', fail);
    req.end();
  });
}

describe('Caddy in front of an upstream', () => {
  let upstream: Server;
  let upstreamPort: number;
  let caddy: RunningCaddy;
  const large = 'frontdesk '.repeat(500);

  beforeAll(async () => {
    upstreamPort = await freePort();
    // Tells what arrived (the proxy's headers), or sends an answer compressed already.
    upstream = createServer((request, response) => {
      if (request.url === '/already-compressed') {
        response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br' });
        response.end('not really brotli, and must pass untouched');
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ url: request.url, headers: request.headers, large }));
      }
    });
    const sockets = new WebSocketServer({ server: upstream });
    sockets.on('connection', (socket) =>
      socket.on('message', (data) => socket.send(`echo ${String(data)}`)),
    );
    await new Promise<void>((done) => upstream.listen(upstreamPort, '127.0.0.1', done));
    caddy = await startCaddy({
      dir: join(dir.path, 'caddy'),
      logFile: join(dir.path, 'caddy.log'),
      host: HOST,
      httpsPort: await freePort(),
      httpPort: await freePort(),
      upstreamPort,
      tls: { certFile: certs.certFile, keyFile: certs.keyFile },
    });
  }, 30_000);
  afterAll(async () => {
    await caddy?.stop();
    upstream?.close();
  });

  it('redirects plain HTTP to HTTPS, keeping the path and query', async () => {
    const answer = await new Promise<{ status: number; location?: string }>((done, fail) =>
      httpRequest(
        { host: '127.0.0.1', port: caddy.httpPort, path: '/console/?a=1', headers: { host: HOST } },
        (response) => {
          response.resume();
          done({ status: response.statusCode ?? 0, location: response.headers.location });
        },
      )
        .on('error', fail)
        .end(),
    );
    expect(answer.status).toBe(308);
    // Caddy leaves out its HTTPS port when it is the one configured (443 in production).
    expect(answer.location).toBe(`https://${HOST}/console/?a=1`);
  });

  it('serves HTTPS with the certificate files, trusted through the authority', async () => {
    const answer = await httpsGet(caddy.httpsPort, '/api/config');
    expect(answer.status).toBe(200);
    const seen = JSON.parse(answer.body.toString()) as {
      url: string;
      headers: IncomingHttpHeaders;
    };
    expect(seen.url).toBe('/api/config');
    // What the API needs to build wss:// URLs and to know the visitor.
    expect(seen.headers).toMatchObject({
      host: `${HOST}:${caddy.httpsPort}`,
      'x-forwarded-proto': 'https',
      'x-forwarded-for': '127.0.0.1',
    });
  });

  it("replaces a visitor's own X-Forwarded-For with the address it came from", async () => {
    // Another local address than loopback when the test namespace's veth0 is there.
    const veth = networkInterfaces().veth0?.find((entry) => entry.family === 'IPv4')?.address;
    const answer = await httpsGet(
      caddy.httpsPort,
      '/who',
      { 'x-forwarded-for': '203.0.113.66', 'x-forwarded-proto': 'http' },
      veth,
    );
    const seen = JSON.parse(answer.body.toString()) as { headers: IncomingHttpHeaders };
    expect(seen.headers['x-forwarded-for']).toBe(veth ?? '127.0.0.1');
    expect(seen.headers['x-forwarded-proto']).toBe('https');
  });

  it('compresses answers that are not compressed yet, and leaves the others alone', async () => {
    const json = await httpsGet(caddy.httpsPort, '/json', { 'accept-encoding': 'gzip' });
    expect(json.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(json.body).toString()).toContain(large);
    const asIs = await httpsGet(caddy.httpsPort, '/already-compressed', {
      'accept-encoding': 'gzip, br',
    });
    expect(asIs.headers['content-encoding']).toBe('br');
    expect(asIs.body.toString()).toBe('not really brotli, and must pass untouched');
  });

  it('passes WebSockets through (wss://)', async () => {
    // To the address, with the name for TLS and Host, as a browser that resolved it would (ws
    // hands `servername` on to tls.connect).
    const options: WebSocket.ClientOptions & Pick<ConnectionOptions, 'servername'> = {
      servername: HOST,
      ca: certs.ca,
      headers: { host: `${HOST}:${caddy.httpsPort}` },
    };
    const socket = new WebSocket(`wss://127.0.0.1:${caddy.httpsPort}/xmpp-websocket`, options);
    const reply = await new Promise<string>((done, fail) => {
      socket.once('open', () => socket.send('hello'));
      socket.once('message', (data) => done(String(data)));
      socket.once('error', fail);
    });
    socket.close();
    expect(reply).toBe('echo hello');
  });

  it('runs as its own user, never root, and is recognised as this folder’s leftover', () => {
    const status = readFileSync(`/proc/${caddy.pid}/status`, 'utf8');
    const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
    if (process.getuid?.() === 0) expect(uid).not.toBe(0);
    const info = processInfo(caddy.pid);
    expect(info && isCaddyOf(join(dir.path, 'caddy'), info)).toBe(true);
    expect(info && isCaddyOf(join(dir.path, 'other'), info)).toBe(false);
  });

  it('is started again on the same ports after a crash, as the stack supervises it', async () => {
    const options = {
      dir: join(dir.path, 'caddy-supervised'),
      logFile: join(dir.path, 'caddy-supervised.log'),
      host: HOST,
      httpsPort: await freePort(),
      httpPort: await freePort(),
      upstreamPort,
      tls: { certFile: certs.certFile, keyFile: certs.keyFile },
    };
    const lines: string[] = [];
    const supervised = new Supervised(await startCaddy(options), {
      name: 'Caddy',
      start: () => startCaddy(options),
      policy: { firstDelayMs: 100, maxDelayMs: 1000, stableAfterMs: 60_000 },
      log: (line) => lines.push(line),
    });
    try {
      const first = supervised.current.pid;
      process.kill(first, 'SIGKILL');
      while (supervised.restarts === 0) await new Promise((done) => setTimeout(done, 50));
      expect(supervised.current.pid).not.toBe(first);
      expect((await httpsGet(options.httpsPort, '/again')).status).toBe(200);
      expect(lines[0]).toBe('Caddy was killed by SIGKILL; restarting in 0.1 s');
    } finally {
      await supervised.stop();
    }
  }, 30_000);

  it('serves renewed certificate files after reloadCertificate, without a restart', async () => {
    const folder = join(dir.path, 'renewal');
    mkdirSync(folder);
    const first = makeTestCertificates(folder, [HOST]);
    const renewing = await startCaddy({
      dir: join(dir.path, 'caddy-renewal'),
      logFile: join(dir.path, 'caddy-renewal.log'),
      host: HOST,
      httpsPort: await freePort(),
      httpPort: await freePort(),
      upstreamPort,
      tls: { certFile: first.certFile, keyFile: first.keyFile },
    });
    const served = () =>
      new Promise<string>((done, fail) => {
        const socket = tlsConnect({
          host: '127.0.0.1',
          port: renewing.httpsPort,
          servername: HOST,
          rejectUnauthorized: false,
        });
        socket.once('secureConnect', () => {
          done(socket.getPeerCertificate().fingerprint256);
          socket.destroy();
        });
        socket.once('error', fail);
      });
    const fingerprintOf = (file: string) => new X509Certificate(readFileSync(file)).fingerprint256;
    try {
      const before = fingerprintOf(first.certFile);
      expect(await served()).toBe(before);
      // Renewed in place: the same file names, a new certificate and key.
      const renewed = makeTestCertificates(folder, [HOST]);
      expect(fingerprintOf(renewed.certFile)).not.toBe(before);
      await renewing.reloadCertificate();
      await vi.waitFor(async () => expect(await served()).toBe(fingerprintOf(renewed.certFile)), {
        timeout: 5000,
      });
      expect(processInfo(renewing.pid)).toBeDefined();
    } finally {
      await renewing.stop();
    }
  }, 30_000);

  it('refuses to start a second one on the same ports, saying which port is taken', async () => {
    await expect(
      startCaddy({
        dir: join(dir.path, 'caddy-2'),
        logFile: join(dir.path, 'caddy-2.log'),
        host: HOST,
        httpsPort: caddy.httpsPort,
        httpPort: await freePort(),
        upstreamPort,
      }),
    ).rejects.toThrow(new RegExp(`port ${caddy.httpsPort} \\(HTTPS\\) is taken`));
  });
});
