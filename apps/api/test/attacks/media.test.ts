import { createHmac, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startJanus, type RunningJanus } from '@frontdesk/infra';
import { envelope, janusTokenSchema, roomAccessSchema, type RoomAccess } from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import {
  addCall,
  buildTestApp,
  callApi,
  claimCall,
  loginGuest,
  loginStaff,
  type TestApp,
  type TestGuest,
} from '../helper.ts';
import { JanusClient } from '../janus-client.ts';

const secret = () => randomBytes(18).toString('base64url');
const janusTokenSecret = secret();
const janusAdminKey = secret();
const turnSecret = secret();

/**
 * Attack: watching and listening to another guest's call through Janus, and making Janus write
 * files (decision 0008). The attacker is a second guest of the same company: it has its own
 * login, its own Janus token and its own call, and it knows the victim's call id, which is the
 * victim's Janus room id. Everything goes through the public interfaces: REST and `/janus-ws`.
 */
describe('attack: joining another call’s Janus room, choosing a recording path', () => {
  let janusDir: string;
  let janus: RunningJanus;
  let t: TestApp;
  let url: string;
  let victim: TestGuest;
  let attacker: TestGuest;
  let victimCall: string;
  let attackerCall: string;
  /** What the API handed the victim and the agent who took the call. */
  let victimAccess: RoomAccess;
  let agentAccess: RoomAccess;
  let attackerAccess: RoomAccess;
  const clients: JanusClient[] = [];

  const send = (method: 'GET' | 'POST', path: string, token?: string, body?: object) =>
    callApi(t.app, method, path, body, token);
  const startCall = async (who: TestGuest) => {
    const { callId, response } = await addCall(t.app, who, SEEDED_COMPANY.demo, 1);
    expect(response.statusCode).toBe(201);
    return callId;
  };
  const openRoom = async (callId: string, token: string) => {
    const response = await send('POST', `calls/${callId}/room`, token);
    expect(response.statusCode).toBe(200);
    return envelope(roomAccessSchema).parse(response.json()).data;
  };
  /** A Janus session over `/janus-ws` with the Janus token the API gives `who`. */
  const janusAs = async (who: { token: string }) => {
    const response = await send('POST', 'auth/janus-token', who.token);
    const { janusToken } = envelope(janusTokenSchema).parse(response.json()).data;
    const client = await JanusClient.open(url, janusToken);
    clients.push(client);
    return client;
  };
  const handleOf = async (who: { token: string }) => {
    const { request } = await (await janusAs(who)).videoroom();
    if (!request) throw new Error('no videoroom handle');
    return request;
  };

  beforeAll(async () => {
    janusDir = await mkdtemp(join(tmpdir(), 'frontdesk-attack-media-'));
    // Janus runs as its own user when we are root: it must enter the folder.
    await chmod(janusDir, 0o711);
    janus = await startJanus({
      dir: join(janusDir, 'janus'),
      // No media here; a range of its own keeps clear of other suites' Janus instances.
      rtpPortRange: [21200, 21210],
      tokenSecret: janusTokenSecret,
      adminKey: janusAdminKey,
      adminSecret: secret(),
      recordingsDir: join(janusDir, 'recordings'),
    });
    t = await buildTestApp({
      JANUS_HTTP_URL: janus.httpUrl,
      JANUS_WEBSOCKET_UPSTREAM: janus.wsUrl,
      JANUS_TOKEN_SECRET: janusTokenSecret,
      JANUS_ADMIN_KEY: janusAdminKey,
      TURN_URLS: 'turn:turn.example:3478?transport=udp,turns:turn.example:5349?transport=tcp',
      TURN_SECRET: turnSecret,
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('the API did not listen');
    url = `ws://127.0.0.1:${address.port}/janus-ws`;

    [victim, attacker] = await Promise.all([
      loginGuest(t.app, SEEDED_COMPANY.demo),
      loginGuest(t.app, SEEDED_COMPANY.demo),
    ]);
    victimCall = await startCall(victim);
    attackerCall = await startCall(attacker);
    const ada = await loginStaff(t.app, 'ada@frontdesk.demo');
    const { room } = await claimCall(t.app, ada, victim, 1);
    // The seeded company's calls go through the media server.
    if (!room) throw new Error('the claim of a media-server call gave no room');
    agentAccess = room;
    victimAccess = await openRoom(victimCall, victim.token);
    attackerAccess = await openRoom(attackerCall, attacker.token);
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await t?.close();
    await janus?.stop();
    await rm(janusDir, { recursive: true, force: true });
  });

  it('the API hands the room only to the call’s own guest and agent', async () => {
    const response = await send('POST', `calls/${victimCall}/room`, attacker.token);
    expect(response.statusCode).toBe(403);
    expect(JSON.stringify(response.json())).not.toContain(victimAccess.pin);
    // The two participants share the pin but not their tokens; the room is the call id.
    expect(agentAccess.room).toBe(victimCall);
    expect(agentAccess.pin).toBe(victimAccess.pin);
    expect(agentAccess.token).not.toBe(victimAccess.token);
  });

  it('gives TURN relay credentials only to the call’s parties, each its own, valid for an hour at most', async () => {
    const refused = await send('POST', `calls/${victimCall}/room`, attacker.token);
    expect(JSON.stringify(refused.json())).not.toContain('turn:');
    for (const [access, role] of [
      [victimAccess, 'guest'],
      [agentAccess, 'agent'],
    ] as const) {
      // The TURN server's STUN port, then the relays with this participant's credential.
      const [stun, turn] = access.iceServers;
      expect(stun).toEqual({ urls: 'stun:turn.example:3478' });
      expect(turn?.urls).toEqual([
        'turn:turn.example:3478?transport=udp',
        'turns:turn.example:5349?transport=tcp',
      ]);
      const [expiry = '', who] = (turn?.username ?? '').split(':');
      expect(who).toBe(`${victimCall}-${role}`);
      const secondsLeft = Number(expiry) - Date.now() / 1000;
      expect(secondsLeft).toBeGreaterThan(3500);
      expect(secondsLeft).toBeLessThanOrEqual(3600);
      // What coturn computes from its static-auth-secret: the credential is good for this name only.
      expect(turn?.credential).toBe(
        createHmac('sha1', turnSecret)
          .update(turn?.username ?? '')
          .digest('base64'),
      );
    }
    expect(agentAccess.iceServers[1]?.credential).not.toBe(victimAccess.iceServers[1]?.credential);
  });

  it('refuses a page of another origin, and a connection without the Janus subprotocol', async () => {
    for (const [options, protocol] of [
      [{ origin: 'https://evil.example' }, 'janus-protocol'],
      [{}, 'other'],
    ] as const) {
      const socket = new WebSocket(url, protocol, { headers: options });
      // Ending a refused handshake makes ws report it as an error; here the refusal is the result.
      socket.on('error', () => undefined);
      const status = await new Promise<number>((resolve) => {
        socket.once('unexpected-response', (_request, response) =>
          resolve(response.statusCode ?? 0),
        );
        socket.once('open', () => resolve(101));
      });
      socket.terminate();
      expect(status).toBe('origin' in options ? 403 : 400);
    }
  });

  it('refuses a publisher or subscriber who knows only the call id', async () => {
    const room = await handleOf(attacker);
    // Without pin and token the gate refuses, naming the field; a forged token passes the gate
    // and Janus refuses it.
    const bare = await room({ request: 'join', ptype: 'publisher', room: victimCall });
    expect(bare.refused?.reason).toMatch(/pin|token/);
    const forged = `guest.${randomBytes(32).toString('base64url')}`;
    const guessed = await room({
      request: 'join',
      ptype: 'publisher',
      room: victimCall,
      pin: 'guess',
      token: forged,
    });
    expect(guessed.data).toMatchObject({ error_code: 433 });
    const watcher = await room({
      request: 'join',
      ptype: 'subscriber',
      room: victimCall,
      pin: 'guess',
      private_id: 1,
      streams: [{ feed: 'guest' }],
    });
    expect(watcher.data).toMatchObject({ error_code: 433 });
  });

  it('refuses the pin without that call’s token, also with a token of the attacker’s own call', async () => {
    for (const token of [
      undefined,
      `guest.${randomBytes(32).toString('base64url')}`,
      attackerAccess.token,
    ]) {
      const room = await handleOf(attacker);
      const reply = await room({
        request: 'join',
        ptype: 'publisher',
        room: victimCall,
        pin: victimAccess.pin,
        display: 'watcher',
        ...(token ? { token } : {}),
      });
      if (token === undefined) expect(reply.refused?.reason).toMatch(/body\.token/);
      else expect(reply.data, token).toMatchObject({ error_code: 433 });
    }
    // A subscriber needs the private id of a publisher of the room (require_pvtid), and the
    // feed ids are the gate's random ones, which no one can list: naming the victim's feed (as if
    // it leaked) with a guessed private id fails too.
    const victimRoom = await handleOf(victim);
    const victimJoined = await victimRoom({
      request: 'join',
      ptype: 'publisher',
      room: victimCall,
      pin: victimAccess.pin,
      token: victimAccess.token,
    });
    expect(victimJoined.data).toMatchObject({ videoroom: 'joined' });
    const room = await handleOf(attacker);
    const watcher = await room({
      request: 'join',
      ptype: 'subscriber',
      room: victimCall,
      pin: victimAccess.pin,
      private_id: 12345,
      streams: [{ feed: String(victimJoined.data?.id) }],
    });
    expect(watcher.data?.videoroom).not.toBe('attached');
    expect([428, 433]).toContain(watcher.data?.error_code);
  });

  it('admits the call’s guest and agent, each under a publisher id the server made', async () => {
    for (const [who, access, role] of [
      [victim, victimAccess, 'guest'],
      [{ token: await loginStaff(t.app, 'ada@frontdesk.demo') }, agentAccess, 'agent'],
    ] as const) {
      const room = await handleOf(who);
      const joined = await room({
        request: 'join',
        ptype: 'publisher',
        room: access.room,
        pin: access.pin.toLowerCase(),
        token: access.token,
        display: role,
      });
      expect(joined.data).toMatchObject({ videoroom: 'joined', room: victimCall });
      expect(String(joined.data?.id)).toMatch(new RegExp(`^${role}-[0-9a-f]{32}$`));
    }
  });

  it('refuses a participant’s own recording name or path, whatever the request', async () => {
    const outside = join(tmpdir(), `frontdesk-attack-${randomBytes(6).toString('hex')}`);
    const room = await handleOf(victim);
    const entry = {
      request: 'join',
      ptype: 'publisher',
      room: victimCall,
      pin: victimAccess.pin,
      token: victimAccess.token,
    };
    // Janus 1.1.2 takes `record` and `filename` on joinandconfigure even with lock_record.
    const joinAndRecord = await room({
      ...entry,
      request: 'joinandconfigure',
      record: true,
      filename: `../../../../../..${outside}`,
    });
    expect(joinAndRecord.refused?.reason).toMatch(/body\.request/);
    const chosenId = await room({ ...entry, id: `../../..${outside}` });
    expect(chosenId.refused?.reason).toMatch(/id/);
    const joined = await room(entry);
    expect(joined.data).toMatchObject({ videoroom: 'joined' });
    for (const body of [
      { request: 'configure', record: true, filename: outside },
      { request: 'configure', filename: `../../..${outside}` },
      { request: 'configure', record: true, secret: 'guess' },
      { request: 'publish', record: true, filename: outside },
    ]) {
      const reply = await room(body);
      expect(reply.refused?.reason, JSON.stringify(body)).toMatch(
        /body\.(request|record|filename|secret)|Unrecognized key/,
      );
    }
    // Nothing of Janus's under that name, in that folder or anywhere its recordings go.
    const recordings = join(t.config.dataDir, 'recordings');
    const written = [
      ...(await readdir(tmpdir())),
      ...(existsSync(recordings) ? await readdir(recordings) : []),
    ];
    expect(written.filter((name) => name.startsWith(basename(outside)))).toEqual([]);
  });

  it('refuses room administration: recording, ACL, listing, forwarding, creating, destroying', async () => {
    const room = await handleOf(attacker);
    for (const body of [
      { request: 'enable_recording', room: victimCall, record: true },
      { request: 'enable_recording', room: victimCall, record: true, secret: 'guess' },
      {
        request: 'allowed',
        room: victimCall,
        action: 'add',
        allowed: [attackerAccess.token],
      },
      { request: 'listparticipants', room: victimCall },
      { request: 'rtp_forward', room: victimCall, publisher_id: 'x', host: '10.0.0.1' },
      { request: 'create', room: 'mine', rec_dir: '/tmp', record: true },
      { request: 'create', room: 'mine', admin_key: 'guess' },
      { request: 'edit', room: victimCall, new_rec_dir: '/tmp' },
      { request: 'kick', room: victimCall, id: 'guest' },
      { request: 'destroy', room: victimCall },
    ]) {
      const reply = await room(body);
      expect(reply.refused?.code, body.request).toBe(403);
      expect(reply.refused?.reason).toMatch(/body\.request/);
    }
    // Nor another plugin of Janus, nor an administrative Janus request.
    const client = await janusAs(attacker);
    const { attached } = await client.videoroom('janus.plugin.recordplay');
    expect(attached.error?.reason).toMatch(/plugin/);
    const admin = await client.send({ janus: 'list_sessions' });
    expect(admin.error?.code).toBe(403);
    // The victim's room is as it was: its guest still joins.
    const joined = await (
      await handleOf(victim)
    )({
      request: 'join',
      ptype: 'publisher',
      room: victimCall,
      pin: victimAccess.pin,
      token: victimAccess.token,
    });
    expect(joined.data).toMatchObject({ videoroom: 'joined' });
  });
});
