import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TcpTransport, TurnProtocol } from 'werift';
import { WebSocket, WebSocketServer } from 'ws';
import { freePort, startCoturn, type RunningCoturn } from '@frontdesk/infra';
import { livenessSchema, readinessSchema } from '@frontdesk/protocol';
import { buildApp } from '../src/app.ts';
import { READINESS_OPTIONAL_TIMEOUT_MS } from '../src/monitoring/health.ts';
import { callIceServers } from '../src/calls/ice-servers.ts';
import { openDatabase } from '../src/db/database.ts';
import { SEEDED_COMPANY } from '../src/db/seed.ts';
import {
  buildReplica,
  buildTestApp,
  callApi,
  loginGuest,
  markAnswered,
  newCallId,
  type TestApp,
} from './helper.ts';

/** One sample of the Prometheus text format: `name{label="value",…} value`. */
type Sample = { name: string; labels: Record<string, string>; value: number };

function parseSamples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample: ${line}`);
      const [, name = '', labels = '', value = ''] = match;
      return {
        name,
        labels: Object.fromEntries(
          [...labels.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k = '', v = '']) => [k, v]),
        ),
        value: Number(value),
      };
    });
}

/** The value of the one sample named `name` with (at least) `labels`; undefined when absent. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}) {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name}`);
  return found[0]?.value;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A stand-in WebSocket upstream (ejabberd's `/ws`, Janus) that accepts `subprotocol`. */
async function upstreamWebsocket(subprotocol: string) {
  const server = createServer();
  const wss = new WebSocketServer({
    server,
    handleProtocols: (protocols) => (protocols.has(subprotocol) ? subprotocol : false),
  });
  return { server, wss, host: await listen(server) };
}

describe('metrics and probes', () => {
  let t: TestApp;
  let xmppAdmin: Server;
  let xmppWs: Awaited<ReturnType<typeof upstreamWebsocket>>;
  let janusWs: Awaited<ReturnType<typeof upstreamWebsocket>>;
  let apiHost: string;

  const scrape = async () => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parseSamples(response.body);
  };

  beforeAll(async () => {
    // ejabberd's admin API answers; Janus's HTTP API does not (the discard port): one optional
    // dependency is down.
    xmppAdmin = createServer((_request, response) => response.writeHead(200).end('{}'));
    const adminHost = await listen(xmppAdmin);
    [xmppWs, janusWs] = await Promise.all([
      upstreamWebsocket('xmpp'),
      upstreamWebsocket('janus-protocol'),
    ]);
    t = await buildTestApp({
      XMPP_ADMIN_URL: `http://${adminHost}/api`,
      XMPP_WEBSOCKET_UPSTREAM: `ws://${xmppWs.host}/ws`,
      JANUS_WEBSOCKET_UPSTREAM: `ws://${janusWs.host}`,
      JANUS_HTTP_URL: 'http://127.0.0.1:9/janus',
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    apiHost = `127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
    for (const upstream of [xmppWs, janusWs]) {
      upstream?.wss.close();
      upstream?.server.close();
    }
    xmppAdmin?.close();
  });

  it('answers /livez without asking any dependency', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/livez' });
    expect(response.statusCode).toBe(200);
    expect(livenessSchema.parse(response.json())).toEqual({ status: 'alive' });
  });

  it('stays ready with Janus down, and says so (a shared Janus must not empty the fleet)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(readinessSchema.parse(response.json())).toEqual({
      status: 'ready',
      degraded: ['janus'],
      dependencies: { database: 'up', xmpp: 'up', janus: 'down' },
    });
    // The all-up check operators already use is unchanged: one dependency down is a 503.
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(503);
  });

  it('serves the expected metrics, the default process ones included', async () => {
    const names = new Set((await scrape()).map((s) => s.name));
    for (const name of [
      'frontdesk_http_request_duration_seconds_bucket',
      'frontdesk_http_request_duration_seconds_sum',
      'frontdesk_http_request_duration_seconds_count',
      'frontdesk_calls_live',
      'frontdesk_guests_waiting',
      'frontdesk_websocket_connections',
      'frontdesk_dependency_up',
      'frontdesk_recording_merges_pending',
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(names, name).toContain(name);
    }
  });

  it('counts a request under its route pattern and status class, never its raw URL', async () => {
    const company = SEEDED_COMPANY.demo;
    const before = valueOf(await scrape(), 'frontdesk_http_request_duration_seconds_count', {
      route: '/api/company/:id',
      status_class: '2xx',
    });
    expect((await t.app.inject({ method: 'GET', url: `/api/company/${company}` })).statusCode).toBe(
      200,
    );
    await t.app.inject({ method: 'GET', url: '/no/such/page.js' });
    const samples = await scrape();
    const count = (labels: Record<string, string>) =>
      valueOf(samples, 'frontdesk_http_request_duration_seconds_count', labels);
    expect(count({ method: 'GET', route: '/api/company/:id', status_class: '2xx' })).toBe(
      (before ?? 0) + 1,
    );
    expect(count({ method: 'GET', route: 'unmatched', status_class: '4xx' })).toBeGreaterThan(0);
    const routes = samples.map((s) => s.labels.route).filter((r) => r !== undefined);
    expect(routes).not.toContain(`/api/company/${company}`);
    expect(routes).not.toContain('/no/such/page.js');
  });

  it('reports each dependency up or down as the health check finds it', async () => {
    const samples = await scrape();
    const up = (dependency: string) => valueOf(samples, 'frontdesk_dependency_up', { dependency });
    expect([up('database'), up('xmpp'), up('janus')]).toEqual([1, 1, 0]);
  });

  it('counts waiting guests and live calls from the database at scrape time', async () => {
    const calls = async () => {
      const samples = await scrape();
      return {
        live: valueOf(samples, 'frontdesk_calls_live'),
        waiting: valueOf(samples, 'frontdesk_guests_waiting'),
      };
    };
    expect(await calls()).toEqual({ live: 0, waiting: 0 });
    const guests = await Promise.all([1, 2].map(() => loginGuest(t.app, SEEDED_COMPANY.demo)));
    const callIds = await Promise.all(
      guests.map(async (guest) => {
        const callId = newCallId(guest);
        const added = await callApi(
          t.app,
          'POST',
          'call-report/add',
          { call_id: callId, company: SEEDED_COMPANY.demo, source: 'site', category_id: 1 },
          guest.token,
        );
        expect(added.statusCode).toBe(201);
        return callId;
      }),
    );
    expect(await calls()).toEqual({ live: 0, waiting: 2 });
    await markAnswered(t.app, callIds[0] ?? '');
    expect(await calls()).toEqual({ live: 1, waiting: 1 });
  });

  it('counts the browser WebSockets open through each gateway while they are open', async () => {
    const connections = async (gateway: string) =>
      valueOf(await scrape(), 'frontdesk_websocket_connections', { gateway });
    expect([await connections('xmpp'), await connections('janus')]).toEqual([0, 0]);
    const browsers = [
      new WebSocket(`ws://${apiHost}/xmpp-websocket`, 'xmpp'),
      new WebSocket(`ws://${apiHost}/janus-ws`, 'janus-protocol'),
    ];
    await Promise.all(browsers.map((b) => new Promise((resolve) => b.once('open', resolve))));
    await vi.waitFor(async () => {
      expect([await connections('xmpp'), await connections('janus')]).toEqual([1, 1]);
    });
    for (const browser of browsers) browser.close();
    await vi.waitFor(async () => {
      expect([await connections('xmpp'), await connections('janus')]).toEqual([0, 0]);
    });
  });

  it('has no recording merge pending when no recorded call has ended', async () => {
    expect(valueOf(await scrape(), 'frontdesk_recording_merges_pending')).toBe(0);
  });
});

describe('probes with the chat server hanging', () => {
  let t: TestApp;
  let hanging: Server;
  beforeAll(async () => {
    // An admin API that takes the request and never answers, as a chat node frozen or swamped.
    hanging = createServer(() => undefined);
    t = await buildTestApp({
      XMPP_ADMIN_URL: `http://${await listen(hanging)}/api`,
      JANUS_HTTP_URL: 'http://127.0.0.1:9/janus',
    });
  });
  afterAll(async () => {
    await t?.close();
    hanging?.closeAllConnections();
    hanging?.close();
  });

  it('answers /readyz ready, naming the chat server as degraded', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(readinessSchema.parse(response.json())).toEqual({
      status: 'ready',
      degraded: ['xmpp', 'janus'],
      dependencies: { database: 'up', xmpp: 'down', janus: 'down' },
    });
  });

  it("gives up on the optional dependencies within the balancer's check", async () => {
    // An answer that waited on a slow chat server past haproxy's check took the last replica
    // out of the balancer (the cluster loss journey, under load).
    const template = await readFile(
      join(import.meta.dirname, '../../../infra/templates/haproxy/haproxy.cfg'),
      'utf8',
    );
    const [, amount, unit] = /^\s*timeout check (\d+)(ms|s)$/m.exec(template) ?? [];
    const checkMs = Number(amount) * (unit === 's' ? 1000 : 1);
    expect(checkMs).toBeGreaterThan(0);
    expect(READINESS_OPTIONAL_TIMEOUT_MS).toBeLessThan(checkMs);
  });
});

describe('probes with the database down', () => {
  let t: TestApp;
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    t = await buildTestApp();
    // The same configuration over a pool whose server is not there (a socket folder that does
    // not exist): every query fails at once.
    const db = await openDatabase('postgresql://postgres@/frontdesk?host=/nonexistent-socket-dir');
    app = await buildApp({ config: t.config, db });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await app?.db.destroy();
    await t?.close();
  });

  it('is alive but not ready (503), so the balancer stops sending it work', async () => {
    expect((await app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    const readiness = readinessSchema.parse(response.json());
    expect(readiness.status).toBe('unready');
    expect(readiness.dependencies.database).toBe('down');
  });

  it('still serves /metrics, with the call counts unknown (NaN) rather than a false 0', async () => {
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    const samples = parseSamples(response.body);
    expect(valueOf(samples, 'frontdesk_dependency_up', { dependency: 'database' })).toBe(0);
    expect(valueOf(samples, 'frontdesk_calls_live')).toBeNaN();
    expect(valueOf(samples, 'frontdesk_guests_waiting')).toBeNaN();
  });
});

describe('TURN allocations, from coturn itself', () => {
  const secret = randomBytes(18).toString('base64url');
  const password = randomBytes(18).toString('base64url');
  let folder: string;
  let coturn: RunningCoturn;
  let t: TestApp;

  const turnFigures = async (app = t.app) => {
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    // Whatever coturn does, the scrape itself succeeds.
    expect(response.statusCode).toBe(200);
    const samples = parseSamples(response.body);
    return {
      allocations: valueOf(samples, 'frontdesk_turn_allocations'),
      up: valueOf(samples, 'frontdesk_dependency_up', { dependency: 'turn' }),
    };
  };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'frontdesk-turn-metrics-'));
    // coturn runs as its own user, which must enter the folder.
    await chmod(folder, 0o711);
    coturn = await startCoturn({
      dir: join(folder, 'coturn'),
      logFile: join(folder, 'coturn.log'),
      secret,
      realm: 'frontdesk.localhost',
      relayPorts: [49900, 49999],
      allowedPeers: [],
      cli: { port: await freePort(), password },
    });
    t = await buildTestApp({
      TURN_URLS: `turn:127.0.0.1:${coturn.port}?transport=tcp`,
      TURN_SECRET: secret,
      TURN_CLI_ADDRESS: `127.0.0.1:${coturn.cliPort}`,
      TURN_CLI_PASSWORD: password,
    });
  });
  afterAll(async () => {
    await t?.close();
    await coturn?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('counts the relays coturn holds: one more while a party of a call holds one, one fewer once it lets go', async () => {
    expect(await turnFigures()).toEqual({ allocations: 0, up: 1 });
    // A call's guest, with the credential the API gives it, allocates the way a browser does.
    const relay = callIceServers(t.config.ice, 'c-metrics', 'guest').find((s) => s.username);
    const address: [string, number] = ['127.0.0.1', coturn.port];
    const turn = new TurnProtocol(
      address,
      relay?.username ?? '',
      relay?.credential ?? '',
      600,
      await TcpTransport.init(address),
    );
    try {
      await turn.connectionMade();
      // coturn's CLI hears of a session from the thread that made it, a moment later.
      await vi.waitFor(async () => expect(await turnFigures()).toEqual({ allocations: 1, up: 1 }), {
        timeout: 5000,
      });
    } finally {
      await turn.close();
    }
    // Over TCP, the connection's end ends the allocation.
    await vi.waitFor(async () => expect(await turnFigures()).toEqual({ allocations: 0, up: 1 }), {
      timeout: 5000,
    });
  });

  it('says coturn is down, not zero, when its CLI refuses the password', async () => {
    const replica = await buildReplica(t, {
      turnCli: { host: '127.0.0.1', port: coturn.cliPort ?? 0, password: `${password}x` },
    });
    try {
      const figures = await turnFigures(replica.app);
      expect(figures.up).toBe(0);
      expect(figures.allocations).toBeNaN();
    } finally {
      await replica.close();
    }
  });

  it('says coturn is down, not zero, while it is stopped', async () => {
    await coturn.stop();
    const figures = await turnFigures();
    expect(figures.up).toBe(0);
    expect(figures.allocations).toBeNaN();
  });
});

describe("TURN allocations without coturn's CLI", () => {
  it('has no TURN series at all rather than a false 0', async () => {
    const t = await buildTestApp();
    try {
      const response = await t.app.inject({ method: 'GET', url: '/metrics' });
      const samples = parseSamples(response.body);
      expect(samples.some((sample) => sample.name === 'frontdesk_turn_allocations')).toBe(false);
      expect(valueOf(samples, 'frontdesk_dependency_up', { dependency: 'turn' })).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
