import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// infra's package entry exports only the whole stack; these two modules are what we need.
import { startJanus, type RunningJanus } from '../../../../infra/src/janus.ts';
import { mintJanusToken } from '../../../../infra/src/janus-token.ts';
import { JanusError, VIDEOROOM_PLUGIN, withPluginHandle } from './janus-http.ts';
import { JanusRooms } from './rooms.ts';

const secret = () => randomBytes(12).toString('hex');
const tokenSecret = secret();
const adminKey = secret();
let dir: string;
let janus: RunningJanus;
let rooms: JanusRooms;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'frontdesk-media-rooms-'));
  // Janus runs as its own user when we are root: it must enter the folder.
  await chmod(dir, 0o711);
  janus = await startJanus({
    dir: join(dir, 'janus'),
    // No media here; a range of its own keeps clear of other suites' Janus instances.
    rtpPortRange: [21000, 21010],
    tokenSecret,
    adminKey,
    adminSecret: secret(),
    recordingsDir: join(dir, 'recordings'),
  });
  rooms = new JanusRooms({
    httpUrl: janus.httpUrl,
    adminKey,
    token: () => mintJanusToken(tokenSecret, 60),
  });
});

afterAll(async () => {
  await janus?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** A request as a participant's browser makes it: a session of its own and a token. */
const asParticipant = (body: Record<string, unknown>) =>
  withPluginHandle(
    { httpUrl: janus.httpUrl, token: mintJanusToken(tokenSecret, 60) },
    VIDEOROOM_PLUGIN,
    async (handle) => (await handle.message(body)).data,
  );

const joinAsPublisher = (room: string, pin: string, token?: string) =>
  asParticipant({
    request: 'join',
    ptype: 'publisher',
    room,
    pin,
    display: 'probe',
    ...(token === undefined ? {} : { token }),
  });

describe('JanusRooms', () => {
  it('creates a private room that only the lowercased pin and a listed token open, idempotently', async () => {
    const room = `call-${secret()}`;
    const created = await rooms.create({
      room,
      pin: 'PinABC',
      secret: secret(),
      allowed: ['token-a'],
      recordingsDir: join(dir, 'recordings'),
    });
    expect(created).toEqual({ room, created: true });
    expect(await rooms.exists(room)).toBe(true);
    expect(await rooms.create({ room, pin: 'PinABC', secret: 'x', allowed: [] })).toEqual({
      room,
      created: false,
    });

    expect(await joinAsPublisher(room, 'pinabc', 'token-a')).toMatchObject({
      videoroom: 'joined',
      room,
    });
    await expect(joinAsPublisher(room, 'wrong', 'token-a')).rejects.toMatchObject({ code: 433 });
    await expect(joinAsPublisher(room, 'pinabc')).rejects.toMatchObject({ code: 433 });
    await expect(joinAsPublisher(room, 'pinabc', 'token-b')).rejects.toMatchObject({ code: 433 });
  });

  it('adds tokens to the ACL only with the secret', async () => {
    const room = `call-${secret()}`;
    const roomSecret = secret();
    await rooms.create({ room, pin: 'p', secret: roomSecret, allowed: ['first'] });
    await expect(rooms.allow({ room, secret: 'wrong' }, ['second'])).rejects.toMatchObject({
      code: 433,
    });
    await expect(joinAsPublisher(room, 'p', 'second')).rejects.toMatchObject({ code: 433 });
    await rooms.allow({ room, secret: roomSecret }, ['second']);
    expect(await joinAsPublisher(room, 'p', 'second')).toMatchObject({ videoroom: 'joined' });
  });

  it('asks for H.264 profile 42e01f for webview pages', async () => {
    const room = `call-${secret()}`;
    await rooms.create({ room, pin: 'p', secret: secret(), allowed: [], webview: true });
    // Private rooms are listed only with the admin key (the list omits the H.264 profile).
    const list = await asParticipant({ request: 'list', admin_key: adminKey });
    expect(list.list).toContainEqual(expect.objectContaining({ room, videocodec: 'h264' }));
  });

  it('destroys only with the secret, and tolerates a room already gone', async () => {
    const room = `call-${secret()}`;
    const roomSecret = secret();
    await rooms.create({ room, pin: 'p', secret: roomSecret, allowed: [] });
    await expect(rooms.destroy({ room, secret: 'wrong' })).rejects.toMatchObject({ code: 433 });
    await rooms.destroy({ room, secret: roomSecret });
    expect(await rooms.exists(room)).toBe(false);
    await rooms.destroy({ room, secret: roomSecret });
  });

  it('refuses to create rooms with a wrong admin key', async () => {
    const wrong = new JanusRooms({
      httpUrl: janus.httpUrl,
      adminKey: 'not-the-key',
      token: () => mintJanusToken(tokenSecret, 60),
    });
    const failure = wrong.create({ room: `call-${secret()}`, pin: 'p', secret: 's', allowed: [] });
    await expect(failure).rejects.toBeInstanceOf(JanusError);
    await expect(failure).rejects.toMatchObject({ code: 433 });
  });
});
