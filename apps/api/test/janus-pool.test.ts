import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startJanus, type RunningJanus } from '@frontdesk/infra';
import { JanusRooms } from '@frontdesk/media/server';
import { envelope, janusTokenSchema, roomAccessSchema, type RoomAccess } from '@frontdesk/protocol';
import { mintJanusToken } from '../src/auth/service-tokens.ts';
import { loadConfig } from '../src/config.ts';
import { LOST_AFTER_MS } from '../src/media-servers/media-server-pool.ts';
import { SEEDED_COMPANY } from '../src/db/seed.ts';
import {
  buildReplica,
  buildTestApp,
  callApi,
  guestWithCall,
  testDatabaseUrl,
  type TestApp,
} from './helper.ts';
import { JanusClient } from './janus-client.ts';
import { runOperatorCommand } from './operator-command.ts';

const secret = () => randomBytes(18).toString('base64url');
const tokenSecret = secret();
const adminKey = secret();
const NAMES = ['janus1', 'janus2'] as const;
type Name = (typeof NAMES)[number];

type Guest = Awaited<ReturnType<typeof guestWithCall>>;

/** Starts the app listening on a free port; its `/janus-ws` address. */
async function listenGate(app: TestApp['app']): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the API did not listen');
  return `ws://127.0.0.1:${address.port}/janus-ws`;
}

/**
 * The Janus pool (decision 0039) with two real Janus servers sharing the API's secrets: calls are
 * placed by load, a drained server takes no new call, a lost server's call moves at its next
 * open, and `/janus-ws?server=` bridges to the server named.
 */
describe('the Janus pool', () => {
  let dir: string;
  const janus = {} as Record<Name, RunningJanus>;
  const rooms = {} as Record<Name, JanusRooms>;
  let t: TestApp;
  let gateUrl: string;

  /** `POST /calls/:callId/room` as the call's guest (on `app`, this API process by default). */
  const openRoom = async (guest: Guest, app = t.app) => {
    const response = await callApi(
      app,
      'POST',
      `calls/${guest.callId}/room`,
      undefined,
      guest.token,
    );
    expect(response.statusCode, response.body).toBe(200);
    return envelope(roomAccessSchema).parse(response.json()).data;
  };
  /** The Janus token the API gives the guest of a live call. */
  const janusTokenOf = async (guest: Guest) => {
    const response = await callApi(t.app, 'POST', 'auth/janus-token', undefined, guest.token);
    return envelope(janusTokenSchema).parse(response.json()).data.janusToken;
  };
  /** The server the registry holds the call on. */
  const placementOf = async (guest: Guest) => {
    const row = await t.app.db
      .selectFrom('call_reports')
      .innerJoin('media_servers', 'media_servers.id', 'call_reports.media_server_id')
      .select('media_servers.name')
      .where('call_reports.call_id', '=', guest.callId)
      .executeTakeFirst();
    return row?.name;
  };
  const roomIsOn = async (guest: Guest) => {
    const on: Name[] = [];
    for (const name of NAMES) if (await rooms[name].exists(guest.callId)) on.push(name);
    return on;
  };
  const endCall = async (guest: Guest, app = t.app) => {
    const response = await callApi(
      app,
      'POST',
      `calls/${guest.callId}/end`,
      { reason: 'abandoned' },
      guest.token,
    );
    expect(response.statusCode, response.body).toBe(200);
  };
  /** `npm run media-servers` as the operator runs it, on this file's schema. */
  const mediaServersCommand = (...args: string[]) => runOperatorCommand(t, 'media-servers', args);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'frontdesk-janus-pool-'));
    // Janus runs as its own user when we are root: it must enter the folder.
    await chmod(dir, 0o711);
    const ports: Record<Name, [number, number]> = {
      janus1: [21500, 21510],
      janus2: [21520, 21530],
    };
    for (const name of NAMES) {
      janus[name] = await startJanus({
        dir: join(dir, name),
        rtpPortRange: ports[name],
        tokenSecret,
        adminKey,
        adminSecret: secret(),
        // One folder for the pool, as the merge job reads it (decision 0039).
        recordingsDir: join(dir, 'recordings'),
      });
      rooms[name] = new JanusRooms({
        httpUrl: janus[name].httpUrl,
        adminKey,
        token: () => mintJanusToken(tokenSecret, new Date(Date.now() + 60_000)),
      });
    }
    t = await buildTestApp({
      JANUS_SERVERS: JSON.stringify(
        NAMES.map((name) => ({
          name,
          httpUrl: janus[name].httpUrl,
          websocketUrl: janus[name].wsUrl,
          capacity: 2,
        })),
      ),
      JANUS_TOKEN_SECRET: tokenSecret,
      JANUS_ADMIN_KEY: adminKey,
    });
    gateUrl = await listenGate(t.app);
  });
  afterAll(async () => {
    await t?.close();
    for (const name of NAMES) await janus[name]?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const calls: Guest[] = [];
  /** The `i`th call the placement test made. */
  const call = (i: number) => {
    const guest = calls[i];
    if (!guest) throw new Error(`no call ${i}: the placement test did not run`);
    return guest;
  };

  it('registers the configured servers, healthy', async () => {
    const rows = await t.app.db
      .selectFrom('media_servers')
      .select(['name', 'capacity', 'state', 'last_healthy_at', 'last_error'])
      .orderBy('name')
      .execute();
    expect(rows).toMatchObject([
      { name: 'janus1', capacity: 2, state: 'active', last_error: null },
      { name: 'janus2', capacity: 2, state: 'active', last_error: null },
    ]);
    expect(rows.every((row) => row.last_healthy_at !== null)).toBe(true);
  });

  it('places each new call on the least-loaded server and keeps it there', async () => {
    for (let i = 0; i < 3; i += 1) calls.push(await guestWithCall(t.app, SEEDED_COMPANY.demo, 1));
    const servers = [];
    for (const guest of calls) servers.push((await openRoom(guest)).server);
    // 0/2 and 0/2: by name; then 1/2 against 0/2; then 1/2 and 1/2: by name.
    expect(servers).toEqual(['janus1', 'janus2', 'janus1']);
    for (const [i, guest] of calls.entries()) {
      expect(await placementOf(guest)).toBe(servers[i]);
      expect(await roomIsOn(guest)).toEqual([servers[i]]);
    }
    // Asked again (the other participant, a reconnect): the same server.
    expect((await openRoom(call(1))).server).toBe('janus2');
  });

  it('places calls opened at once by two API processes on both servers', async () => {
    // Loads 2/2 and 1/2 now: the first placement takes janus2, the second sees it and ties.
    const replica = await buildReplica(t);
    try {
      const a = await guestWithCall(t.app, SEEDED_COMPANY.demo, 1);
      const b = await guestWithCall(t.app, SEEDED_COMPANY.demo, 1);
      const opened = await Promise.all([
        callApi(t.app, 'POST', `calls/${a.callId}/room`, undefined, a.token),
        callApi(replica.app, 'POST', `calls/${b.callId}/room`, undefined, b.token),
      ]);
      const servers = opened.map(
        (response) => envelope(roomAccessSchema).parse(response.json()).data.server,
      );
      expect(servers.sort()).toEqual(['janus1', 'janus2']);
      // Ending a call destroys its room on its own server.
      for (const guest of [a, b]) {
        const on = await roomIsOn(guest);
        expect(on).toHaveLength(1);
        await endCall(guest);
        expect(await roomIsOn(guest)).toEqual([]);
      }
    } finally {
      await replica.close();
    }
  });

  it('places no new call on a drained server; its live call stays', async () => {
    const drained = mediaServersCommand('drain', 'janus2');
    expect(drained.stderr).toBe('');
    expect(drained.status).toBe(0);
    expect(drained.stdout).toContain('janus2 is draining');
    const listed = mediaServersCommand('list');
    expect(listed.stdout).toMatch(/janus1\tactive\t2\/2 live calls\thealthy at /);
    expect(listed.stdout).toMatch(/janus2\tdraining\t1\/2 live calls\thealthy at /);

    // janus1 has 2 of 2, janus2 1 of 2: only the drain sends the call to janus1.
    const next = await guestWithCall(t.app, SEEDED_COMPANY.demo, 1);
    expect((await openRoom(next)).server).toBe('janus1');
    expect((await openRoom(call(1))).server).toBe('janus2');
    expect(await roomIsOn(call(1))).toEqual(['janus2']);
    await endCall(next);

    expect(mediaServersCommand('undrain', 'janus2').status).toBe(0);
    const unknown = mediaServersCommand('drain', 'janus9');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('no media server is named janus9');
    expect(mediaServersCommand('drain', '../x').status).toBe(2);
    const back = await guestWithCall(t.app, SEEDED_COMPANY.demo, 1);
    expect((await openRoom(back)).server).toBe('janus2');
    await endCall(back);
  });

  /** The upgrade's answer to `/janus-ws<query>`: opened, or refused with a status and body. */
  const upgrade = (query: string) =>
    new Promise<{ socket: WebSocket } | { status: number; body: string }>((done, fail) => {
      const socket = new WebSocket(`${gateUrl}${query}`, 'janus-protocol');
      socket.once('open', () => done({ socket }));
      socket.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += String(chunk)));
        response.on('end', () => done({ status: response.statusCode ?? 0, body }));
      });
      socket.once('error', fail);
    });

  it('refuses a gate connection to a server it does not know, naming the field', async () => {
    for (const query of ['?server=janus9', '?server=..%2Fx', '']) {
      const answer = await upgrade(query);
      expect(answer).toMatchObject({ status: 400 });
      if ('body' in answer) {
        expect(JSON.parse(answer.body)).toMatchObject({
          error: { code: 'unknown_media_server', message: expect.stringMatching(/^server: /) },
        });
      }
    }
  });

  it('bridges the gate to the server named: the session lives on that Janus', async () => {
    const guest = call(1);
    const janusToken = await janusTokenOf(guest);
    const answer = await upgrade('?server=janus2');
    if (!('socket' in answer)) throw new Error(`refused: ${answer.body}`);
    const { socket } = answer;
    const created = await new Promise<{ janus: string; data?: { id: number } }>((done) => {
      socket.once('message', (data) => done(JSON.parse(String(data))));
      socket.send(JSON.stringify({ janus: 'create', transaction: 'c1', token: janusToken }));
    });
    expect(created.janus).toBe('success');
    const keepalive = async (name: Name) => {
      const response = await fetch(`${janus[name].httpUrl}/${created.data?.id}`, {
        method: 'POST',
        body: JSON.stringify({ janus: 'keepalive', transaction: 'k1', token: janusToken }),
      });
      return ((await response.json()) as { janus: string }).janus;
    };
    expect(await keepalive('janus2')).toBe('ack');
    expect(await keepalive('janus1')).toBe('error');
    socket.close();
  });

  it('destroys the room left behind when it moves a call off a server alive but slow', async () => {
    // Loads 2/2 and 1/2: the new call goes to janus2.
    const guest = await guestWithCall(t.app, SEEDED_COMPANY.demo, 1);
    expect((await openRoom(guest)).server).toBe('janus2');
    // janus2 stops answering for a while (a busy machine): its stamp is stale, its check fails.
    process.kill(janus.janus2.pid, 'SIGSTOP');
    try {
      await t.app.db
        .updateTable('media_servers')
        .set({ last_healthy_at: new Date(0) })
        .where('name', '=', 'janus2')
        .execute();
      expect((await openRoom(guest)).server).toBe('janus1');
    } finally {
      process.kill(janus.janus2.pid, 'SIGCONT');
    }
    // Once it answers again, the room there is gone: whoever was still in it got `destroyed`.
    await expect.poll(() => rooms.janus2.exists(guest.callId)).toBe(false);
    expect(await roomIsOn(guest)).toEqual(['janus1']);
    await endCall(guest);
    // The next tests place by load: janus2 back in the registry as healthy, well within the
    // time that would make it lost again (the API's check runs each second).
    await expect
      .poll(async () => {
        const { last_healthy_at: at } = await t.app.db
          .selectFrom('media_servers')
          .select('last_healthy_at')
          .where('name', '=', 'janus2')
          .executeTakeFirstOrThrow();
        return at !== null && Date.now() - at.getTime() < LOST_AFTER_MS / 2;
      })
      .toBe(true);
  });

  it('serves a call placed on a server another API process lists but this one does not', async () => {
    const guest = await guestWithCall(t.app, SEEDED_COMPANY.demo, 1);
    // Loads 2/2 and 1/2 again: janus2.
    expect((await openRoom(guest)).server).toBe('janus2');
    const janus1Only = t.config.janus.servers.filter((server) => server.name === 'janus1');
    const replica = await buildReplica(t, { janus: { ...t.config.janus, servers: janus1Only } });
    try {
      expect((await openRoom(guest, replica.app)).server).toBe('janus2');
      expect(await placementOf(guest)).toBe('janus2');
      expect(await roomIsOn(guest)).toEqual(['janus2']);

      const replicaGate = await listenGate(replica.app);
      (await JanusClient.open(`${replicaGate}?server=janus2`, await janusTokenOf(guest))).close();
      await endCall(guest, replica.app);
      expect(await roomIsOn(guest)).toEqual([]);
    } finally {
      await replica.close();
    }
  });

  it('moves a lost server’s call to another at its next open, and stores it', async () => {
    const moving = call(1);
    expect(await placementOf(moving)).toBe('janus2');
    const janusToken = await janusTokenOf(moving);
    /** The guest's page joining its room as the media layer does, through the gate. */
    const joinAs = async (access: RoomAccess) => {
      const client = await JanusClient.open(`${gateUrl}?server=${access.server}`, janusToken);
      const { request } = await client.videoroom();
      const joined = await request?.({
        request: 'join',
        ptype: 'publisher',
        room: access.room,
        pin: access.pin,
        token: access.token,
        display: moving.username,
      });
      expect(joined?.data).toMatchObject({ videoroom: 'joined', room: moving.callId });
      return client;
    };
    const before = await joinAs(await openRoom(moving));
    await janus.janus2.stop();
    // The gate hangs up the page's connection: the media layer's recovery asks for the room.
    await before.closed;
    const access = await openRoom(moving);
    expect(access.server).toBe('janus1');
    expect(access.room).toBe(moving.callId);
    expect(await placementOf(moving)).toBe('janus1');
    expect(await rooms.janus1.exists(moving.callId)).toBe(true);
    (await joinAs(access)).close();
    // While janus2 is gone, new calls go to janus1 too, whatever its load.
    const next = await guestWithCall(t.app, SEEDED_COMPANY.demo, 1);
    expect((await openRoom(next)).server).toBe('janus1');
    const row = await t.app.db
      .selectFrom('media_servers')
      .select(['last_error'])
      .where('name', '=', 'janus2')
      .executeTakeFirstOrThrow();
    expect(row.last_error).not.toBeNull();
  });
});

/**
 * Attack: a guest choosing the server of its call, or reading where another guest's call is.
 * Through the public interface: the room route and the call's state.
 */
describe('attack: choosing or reading a call’s media server', () => {
  let t: TestApp;
  beforeAll(async () => {
    // No Janus needed: placement is refused or read before any room is made.
    t = await buildTestApp({
      JANUS_SERVERS: JSON.stringify([
        {
          name: 'janus1',
          httpUrl: 'http://127.0.0.1:9/janus',
          websocketUrl: 'ws://127.0.0.1:9',
          capacity: 5,
        },
        {
          name: 'janus2',
          httpUrl: 'http://127.0.0.1:9/janus',
          websocketUrl: 'ws://127.0.0.1:9',
          capacity: 5,
        },
      ]),
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a guest cannot name the server of its call', async () => {
    const guest = await guestWithCall(t.app, SEEDED_COMPANY.demo, 1);
    const response = await callApi(
      t.app,
      'POST',
      `calls/${guest.callId}/room?server=janus2`,
      undefined,
      guest.token,
    );
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('server');
    const row = await t.app.db
      .selectFrom('call_reports')
      .select('media_server_id')
      .where('call_id', '=', guest.callId)
      .executeTakeFirstOrThrow();
    expect(row.media_server_id).toBeNull();
  });

  it('a guest cannot read where another guest’s call is', async () => {
    const [victim, attacker] = [
      await guestWithCall(t.app, SEEDED_COMPANY.demo, 1),
      await guestWithCall(t.app, SEEDED_COMPANY.demo, 1),
    ];
    await t.app.db
      .updateTable('call_reports')
      .set({
        media_server_id: t.app.db
          .selectFrom('media_servers')
          .select('id')
          .where('name', '=', 'janus2'),
      })
      .where('call_id', '=', victim.callId)
      .execute();
    const room = await callApi(
      t.app,
      'POST',
      `calls/${victim.callId}/room`,
      undefined,
      attacker.token,
    );
    expect(room.statusCode).toBe(403);
    expect(room.body).not.toContain('janus');
    const state = await callApi(t.app, 'GET', `calls/${victim.callId}`, undefined, attacker.token);
    expect([403, 404]).toContain(state.statusCode);
    expect(state.body).not.toContain('janus');
    // Its own call's state names no server either: only the room's access does.
    const own = await callApi(t.app, 'GET', `calls/${victim.callId}`, undefined, victim.token);
    expect(own.statusCode).toBe(200);
    expect(own.body).not.toContain('janus');
  });
});

describe('JANUS_SERVERS', () => {
  const env = {
    DATABASE_URL: testDatabaseUrl,
    XMPP_JWT_SECRET: secret() + secret(),
    JANUS_TOKEN_SECRET: secret(),
    JANUS_ADMIN_KEY: secret(),
    API_TOKEN_SECRET: secret() + secret(),
    GUEST_FINGERPRINT_KEY: secret() + secret(),
  };
  const server = {
    name: 'janus1',
    httpUrl: 'http://10.210.0.31:8088/janus',
    websocketUrl: 'ws://10.210.0.31:8188',
    capacity: 40,
  };

  it('unset: one server named local at JANUS_HTTP_URL and JANUS_WEBSOCKET_UPSTREAM', () => {
    expect(
      loadConfig({
        ...env,
        JANUS_HTTP_URL: 'http://127.0.0.1:7088/janus',
        JANUS_WEBSOCKET_UPSTREAM: 'ws://127.0.0.1:7188',
      }).janus.servers,
    ).toEqual([
      {
        name: 'local',
        httpUrl: 'http://127.0.0.1:7088/janus',
        websocketUrl: 'ws://127.0.0.1:7188',
        capacity: 40,
      },
    ]);
  });

  it('takes the pool as a JSON array', () => {
    const servers = [server, { ...server, name: 'janus-2', httpUrl: 'https://j2.internal/janus' }];
    expect(loadConfig({ ...env, JANUS_SERVERS: JSON.stringify(servers) }).janus.servers).toEqual(
      servers,
    );
  });

  it('refuses a bad pool, naming the variable and the field', () => {
    const refusal = (value: unknown) => {
      try {
        loadConfig({
          ...env,
          JANUS_SERVERS: typeof value === 'string' ? value : JSON.stringify(value),
        });
      } catch (error) {
        return String(error);
      }
      return 'accepted';
    };
    expect(refusal('[{')).toContain('JANUS_SERVERS: must be a JSON array');
    expect(refusal([])).toContain('JANUS_SERVERS:');
    expect(refusal([{ ...server, name: 'Janus 1' }])).toContain(
      'JANUS_SERVERS.0.name: must be a short slug',
    );
    expect(refusal([{ ...server, websocketUrl: 'http://x' }])).toContain(
      'JANUS_SERVERS.0.websocketUrl: must be a ws(s):// URL',
    );
    expect(refusal([{ ...server, capacity: 0 }])).toContain('JANUS_SERVERS.0.capacity');
    expect(refusal([{ ...server, secret: 'x' }])).toContain('JANUS_SERVERS.0');
    expect(refusal([server, server])).toContain('JANUS_SERVERS: each name once');
  });
});
