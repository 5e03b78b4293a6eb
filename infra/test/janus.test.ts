import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { JanusSession, VIDEOROOM_PLUGIN, withPluginHandle } from '@frontdesk/media/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintJanusToken } from '../src/janus-token.ts';
import { JANUS_USER, startJanus, type RunningJanus } from '../src/janus.ts';
import { isProcessAlive, processGroupMembers } from '../src/process.ts';
import { processUids, tempDir, TestSocket } from './helpers.ts';

const secret = () => randomBytes(18).toString('base64url');
const tokenSecret = secret();
const adminKey = secret();
// Inside the test network namespace (veth pair, see docs/operations.md) pin ICE to veth0.
const iceEnforceList = networkInterfaces().veth0 ? 'veth0' : undefined;
let dir: Awaited<ReturnType<typeof tempDir>>;
let janus: RunningJanus;
let startMs: number;

beforeAll(async () => {
  dir = await tempDir('frontdesk-janus-test-');
  const started = Date.now();
  janus = await startJanus({
    dir: join(dir.path, 'janus'),
    rtpPortRange: [20000, 20200],
    tokenSecret,
    adminKey,
    adminSecret: secret(),
    recordingsDir: join(dir.path, 'recordings'),
    iceEnforceList,
  });
  startMs = Date.now() - started;
});

afterAll(async () => {
  await janus?.stop();
  await dir?.remove();
});

const openSession = (token?: string) =>
  JanusSession.create({ httpUrl: janus.httpUrl, ...(token === undefined ? {} : { token }) });

describe('startJanus', () => {
  it('never runs Janus as root (SECURITY: as root it runs as its own system user)', async () => {
    const uids = await processUids(janus.pid);
    expect(uids.real).not.toBe(0);
    expect(uids.effective).not.toBe(0);
    if (process.getuid?.() === 0) {
      const passwd = await readFile('/etc/passwd', 'utf8');
      expect(passwd).toMatch(new RegExp(`^${JANUS_USER}:x:${uids.real}:`, 'm'));
      // It reaches its recordings folder (it owns it) and nothing of ours beside it.
      const recordings = await stat(janus.recordingsDir);
      expect(recordings.uid).toBe(uids.real);
      expect((await stat(janus.dir)).mode & 0o007).toBe(0);
    }
  });

  it('is ready quickly and renders the optional ICE setting only when given', async () => {
    console.info(`janus start to ready: ${startMs} ms (ice_enforce_list: ${iceEnforceList})`);
    expect(startMs).toBeLessThan(5000);
    const config = await readFile(join(janus.dir, 'janus.jcfg'), 'utf8');
    if (iceEnforceList) expect(config).toContain(`ice_enforce_list = "${iceEnforceList}"`);
    else expect(config).not.toContain('ice_enforce_list');
    expect(config).not.toContain('nat_1_1_mapping');
  });

  it('answers info without a token', async () => {
    const response = await fetch(`${janus.httpUrl}/info`);
    const info = (await response.json()) as { janus: string; plugins: Record<string, unknown> };
    expect(info.janus).toBe('server_info');
    expect(Object.keys(info.plugins)).toEqual(['janus.plugin.videoroom']);
  });

  it('refuses create without a valid token (403) and accepts a minted one', async () => {
    await expect(openSession()).rejects.toMatchObject({ code: 403 });
    await expect(openSession(mintJanusToken('not-the-secret', 60))).rejects.toMatchObject({
      code: 403,
    });
    const ok = await openSession(mintJanusToken(tokenSecret, 60));
    expect(typeof ok.id).toBe('number');
    await ok.destroy();
  });

  it('refuses attaching a plugin the token does not name (405)', async () => {
    const echoOnly = await openSession(mintJanusToken(tokenSecret, 60, ['janus.plugin.echotest']));
    await expect(echoOnly.attach(VIDEOROOM_PLUGIN)).rejects.toMatchObject({ code: 405 });
    await echoOnly.destroy();
  });

  it('creates a videoroom only with the admin_key', async () => {
    const options = { httpUrl: janus.httpUrl, token: mintJanusToken(tokenSecret, 60) };
    await withPluginHandle(options, VIDEOROOM_PLUGIN, async (handle) => {
      const create = async (extra: Record<string, unknown>) =>
        (
          await handle.message({
            request: 'create',
            room: 'infra-test-room',
            publishers: 2,
            ...extra,
          })
        ).data;

      await expect(create({})).rejects.toMatchObject({ code: 429 });
      await expect(create({ admin_key: 'wrong' })).rejects.toMatchObject({ code: 433 });
      expect(await create({ admin_key: adminKey })).toMatchObject({
        videoroom: 'created',
        room: 'infra-test-room',
      });
    });
  });

  it('speaks the Janus API over its WebSocket transport', async () => {
    const socket = await TestSocket.open(janus.wsUrl, 'janus-protocol');
    try {
      socket.send(JSON.stringify({ janus: 'info', transaction: 'ws-info' }));
      const reply = JSON.parse(await socket.next((frame) => frame.includes('ws-info')));
      expect(reply.janus).toBe('server_info');
    } finally {
      socket.close();
    }
  });

  it('stops without leaving a process behind', async () => {
    const started = Date.now();
    await janus.stop();
    console.info(`janus stop: ${Date.now() - started} ms`);
    await janus.stop(); // idempotent
    expect(isProcessAlive(janus.pid)).toBe(false);
    expect(processGroupMembers(janus.pid)).toEqual([]);
  });
});
