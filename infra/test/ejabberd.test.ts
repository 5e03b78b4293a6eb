import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEjabberd, type RunningEjabberd } from '../src/ejabberd.ts';
import { isProcessAlive, processGroupMembers } from '../src/process.ts';
import { processes, processUids, signJwt, tempDir, TestSocket } from './helpers.ts';

const jwtSecret = randomBytes(32);
let dir: Awaited<ReturnType<typeof tempDir>>;
let xmpp: RunningEjabberd;
let epmdBefore: Set<number>;
let startMs: number;

const epmdPids = async () =>
  new Set((await processes()).filter((p) => p.comm === 'epmd').map((p) => p.pid));

beforeAll(async () => {
  epmdBefore = await epmdPids();
  dir = await tempDir('frontdesk-ejabberd-test-');
  const started = Date.now();
  xmpp = await startEjabberd({
    dir: dir.path,
    jwtSecret,
    stunHost: '198.51.100.7',
    stunPort: 3479,
  });
  startMs = Date.now() - started;
});

afterAll(async () => {
  await xmpp?.stop();
  await dir?.remove();
});

function api(command: string, body: unknown): Promise<Response> {
  return fetch(`${xmpp.adminApiUrl}/${command}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Opens an RFC 7395 stream and returns the socket and the stream features. */
async function openStream(): Promise<{ socket: TestSocket; features: string }> {
  const socket = await TestSocket.open(xmpp.wsUrl, 'xmpp');
  socket.send(
    `<open xmlns="urn:ietf:params:xml:ns:xmpp-framing" to="${xmpp.domain}" version="1.0"/>`,
  );
  await socket.next((frame) => frame.startsWith('<open'));
  const features = await socket.next((frame) => frame.includes('features'));
  return { socket, features };
}

async function authenticate(
  socket: TestSocket,
  key: Uint8Array,
  claims: { jid: string; exp: number },
): Promise<string> {
  const token = signJwt(key, claims);
  const plain = Buffer.from(`\0${claims.jid.replace(/@.*/, '')}\0${token}`).toString('base64');
  socket.send(`<auth xmlns="urn:ietf:params:xml:ns:xmpp-sasl" mechanism="PLAIN">${plain}</auth>`);
  return socket.next((frame) => /<(success|failure)/.test(frame));
}

async function login(key: Uint8Array, claims: { jid: string; exp: number }): Promise<string> {
  const { socket } = await openStream();
  try {
    return await authenticate(socket, key, claims);
  } finally {
    socket.close();
  }
}

describe('startEjabberd', () => {
  it('never runs ejabberd as root (SECURITY: the Erlang VM and its shell run as ejabberd)', async () => {
    for (const pid of [xmpp.pid, xmpp.beamPid]) {
      const uids = await processUids(pid);
      expect(uids.real, `pid ${pid}`).not.toBe(0);
      expect(uids.effective, `pid ${pid}`).not.toBe(0);
    }
  });

  it('is ready within seconds', () => {
    console.info(`ejabberd start to ready: ${startMs} ms`);
    expect(startMs).toBeLessThan(15_000);
    expect(xmpp.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ws$/);
    expect(xmpp.mucService).toBe('conference.frontdesk.localhost');
  });

  it('accepts an XMPP WebSocket (subprotocol xmpp) and offers only PLAIN', async () => {
    const { socket, features } = await openStream();
    socket.close();
    expect(socket.ws.protocol).toBe('xmpp');
    expect(features).toContain('<mechanism>PLAIN</mechanism>');
    expect(features).not.toContain('X-OAUTH2');
    expect(features).not.toContain('register');
  });

  it('logs in with a JWT signed with jwtSecret and refuses another key', async () => {
    const exp = Math.floor(Date.now() / 1000) + 60;
    const jid = `alice@${xmpp.domain}`;
    expect(await login(jwtSecret, { jid, exp })).toContain('<success');
    expect(await login(randomBytes(32), { jid, exp })).toContain('<failure');
    expect(await login(jwtSecret, { jid, exp: exp - 120 })).toContain('<failure');
  });

  it('announces the STUN server and no TURN server nor credential (XEP-0215, decision 0015)', async () => {
    const { socket } = await openStream();
    try {
      const jid = `bob@${xmpp.domain}`;
      const exp = Math.floor(Date.now() / 1000) + 60;
      expect(await authenticate(socket, jwtSecret, { jid, exp })).toContain('<success');
      socket.send(
        `<open xmlns="urn:ietf:params:xml:ns:xmpp-framing" to="${xmpp.domain}" version="1.0"/>`,
      );
      await socket.next((frame) => frame.includes('bind'));
      socket.send(
        '<iq type="set" id="bind1"><bind xmlns="urn:ietf:params:xml:ns:xmpp-bind"/></iq>',
      );
      await socket.next((frame) => frame.includes('bind1'));
      socket.send(
        `<iq type="get" id="svc1" to="${xmpp.domain}"><services xmlns="urn:xmpp:extdisco:2"/></iq>`,
      );
      const reply = await socket.next((frame) => frame.includes('svc1'));
      const services = [...reply.matchAll(/<service ([^>]*)\/?>/g)].map(([, attributes = '']) =>
        Object.fromEntries(
          [...attributes.matchAll(/(\w+)=['"]([^'"]*)['"]/g)].map((a) => [a[1], a[2]]),
        ),
      );
      expect(services).toContainEqual(
        expect.objectContaining({ type: 'stun', host: '198.51.100.7', port: '3479' }),
      );
      // SECURITY: relay credentials come only with a live call's room, never to any XMPP user.
      expect(services).toHaveLength(1);
      expect(services.some((service) => service.type === 'turn' || 'password' in service)).toBe(
        false,
      );
      expect(reply).not.toMatch(/type=['"]turns?['"]|password=/);
    } finally {
      socket.close();
    }
  });

  it('creates a MUC room through the admin API once (400 when it exists)', async () => {
    const room = {
      name: 'infra-test-room',
      service: xmpp.mucService,
      host: xmpp.domain,
      options: [
        { name: 'persistent', value: 'true' },
        { name: 'members_only', value: 'true' },
      ],
    };
    const created = await api('create_room_with_opts', room);
    expect(created.status).toBe(200);
    expect(await created.json()).toBe(0);

    const again = await api('create_room_with_opts', room);
    expect(again.status).toBe(400);

    const options = await api('get_room_options', { name: room.name, service: room.service });
    expect(options.status).toBe(200);
    expect(await options.json()).toMatchObject({ persistent: 'true', members_only: 'true' });
  });

  it('refuses admin commands that are not whitelisted', async () => {
    const refused = await api('registered_users', { host: xmpp.domain });
    expect(refused.status).toBe(403);
    const alsoRefused = await api('stop', {});
    expect(alsoRefused.status).toBe(403);
    expect((await api('status', {})).status).toBe(200);
  });

  it('stops without leaving beam.smp, its helpers or an epmd behind', async () => {
    const { pid, beamPid, nodeName } = xmpp;
    expect(isProcessAlive(beamPid)).toBe(true);
    const started = Date.now();
    await xmpp.stop();
    console.info(`ejabberd stop: ${Date.now() - started} ms`);
    await xmpp.stop(); // idempotent

    expect(isProcessAlive(pid)).toBe(false);
    expect(isProcessAlive(beamPid)).toBe(false);
    expect(processGroupMembers(pid)).toEqual([]);
    const left = (await processes()).filter((p) => p.cmdline.includes(nodeName.replace(/@.*/, '')));
    expect(left).toEqual([]);
    const newEpmd = [...(await epmdPids())].filter((p) => !epmdBefore.has(p));
    expect(newEpmd).toEqual([]);
  });
});
