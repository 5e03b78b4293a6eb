import { createServer } from 'node:net';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwdEntry } from '../src/data-dir.ts';
import { freePort, isProcessAlive, processGroupMembers, startProcess } from '../src/process.ts';
import { parseLogSize } from '../src/service-log.ts';
import { tempDir } from './helpers.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('frontdesk-process-test-');
});
afterAll(async () => {
  await dir?.remove();
});

const sh = (name: string, script: string, stopTimeoutMs?: number) =>
  startProcess({
    name,
    command: '/bin/sh',
    args: ['-c', script],
    logFile: join(dir.path, `${name}.log`),
    ...(stopTimeoutMs === undefined ? {} : { stopTimeoutMs }),
  });

describe('startProcess', () => {
  it("keeps the service's log its owner's alone, also one an older run left readable", async () => {
    const logFile = join(dir.path, 'private.log');
    await writeFile(logFile, 'from an older run\n', { mode: 0o644 });
    const proc = await sh('private', 'echo "guest g1 called"; sleep 30');
    await proc.waitUntilReady(async () => (await readFile(logFile, 'utf8')).includes('g1'));
    expect((await stat(logFile)).mode & 0o077).toBe(0);
    await proc.stop();
  });

  it('rotates a log that outgrows its limit, keeping a bounded number of owner-only files', async () => {
    const folder = join(dir.path, 'rotation');
    await mkdir(folder);
    const logFile = join(folder, 'chatty.log');
    // An older run's log, nearly full: the first lines of this run already rotate it.
    await writeFile(logFile, `${'older run\n'.repeat(90)}`, { mode: 0o644 });
    // 200 lines of 40 bytes: 8 KB through a 1 KB limit, about eight rotations. A file is
    // rotated between writes, never within one: the pauses keep the lines apart, as a server's
    // log lines are.
    const proc = await startProcess({
      name: 'chatty',
      command: '/bin/sh',
      args: [
        '-c',
        'for i in $(seq 100 299); do echo "guest g$i waited in the queue, ok"; sleep 0.01; done',
      ],
      logFile,
      logRotation: { maxBytes: 1024, keep: 3 },
    });
    await proc.exited;
    await proc.stop();

    expect((await readdir(folder)).sort()).toEqual([
      'chatty.log',
      'chatty.log.1.gz',
      'chatty.log.2.gz',
      'chatty.log.3.gz',
    ]);
    const rotated = await Promise.all(
      [3, 2, 1].map(async (n) => gunzipSync(await readFile(`${logFile}.${n}.gz`)).toString()),
    );
    const current = await readFile(logFile, 'utf8');
    // Oldest first, nothing lost or repeated between the files kept, and the newest line last.
    const lines = [...rotated, current].join('').trimEnd().split('\n');
    const numbers = lines.map((line) => Number(/g(\d+)/.exec(line)?.[1]));
    expect(numbers.at(-1)).toBe(299);
    expect(numbers).toEqual(numbers.map((_, i) => 299 - numbers.length + 1 + i));
    for (const text of rotated) expect(text.length).toBeGreaterThanOrEqual(1024);
    // The older run's lines went out with the first rotations.
    expect(lines.some((line) => line.startsWith('older run'))).toBe(false);
    for (const file of await readdir(folder)) {
      expect((await stat(join(folder, file))).mode & 0o077).toBe(0);
    }
  });

  it('reports an early exit with the service name and the log tail', async () => {
    const proc = await sh('early-exit', 'echo "config is broken" >&2; exit 3');
    await expect(proc.waitUntilReady(async () => false)).rejects.toThrow(
      /early-exit exited with code 3 before it was ready[\s\S]*config is broken/,
    );
    await proc.stop();
  });

  it('reports a timeout with the last failed check', async () => {
    const proc = await sh('slow', 'echo starting; exec sleep 30');
    const check = async () => {
      throw new Error('connection refused');
    };
    await expect(proc.waitUntilReady(check, { timeoutMs: 300 })).rejects.toThrow(
      /slow not ready after 300 ms \(last check: connection refused\)[\s\S]*starting/,
    );
    await proc.stop();
    expect(isProcessAlive(proc.pid)).toBe(false);
  });

  it('resolves when the check passes', async () => {
    let calls = 0;
    const proc = await sh('ready', 'exec sleep 30');
    await proc.waitUntilReady(async () => ++calls >= 3, { intervalMs: 10 });
    expect(calls).toBe(3);
    await proc.stop();
  });

  it('escalates to SIGKILL for the whole group when SIGTERM is ignored', async () => {
    const proc = await sh('stubborn', 'trap "" TERM; sleep 60 & sleep 60; wait', 300);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(processGroupMembers(proc.pid).length).toBeGreaterThanOrEqual(2);
    const started = Date.now();
    const first = proc.stop();
    expect(proc.stop()).toBe(first);
    await first;
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(proc.exitInfo?.signal).toBe('SIGKILL');
    expect(processGroupMembers(proc.pid)).toEqual([]);
  });

  it('fails clearly when the command does not exist', async () => {
    await expect(
      startProcess({
        name: 'ghost',
        command: '/nonexistent/ghost',
        logFile: join(dir.path, 'g.log'),
      }),
    ).rejects.toThrow(/ghost: cannot start \/nonexistent\/ghost/);
  });
});

describe('startProcess as another user', () => {
  const nobody = passwdEntry('nobody');
  // The test runs as root: with supplementary groups of its own (adm, sudo), a service that kept
  // its parent's groups would show them.
  let ownGroups: number[];
  beforeAll(() => {
    if (!process.getgroups || !process.setgroups) throw new Error('needs POSIX group calls');
    ownGroups = process.getgroups();
    process.setgroups([4, 27]);
    // Without them set, the services' empty Groups below would prove nothing.
    expect(process.getgroups()).toEqual(expect.arrayContaining([4, 27]));
  });
  afterAll(() => process.setgroups?.(ownGroups));

  /** The `Uid`, `Gid` and `Groups` lines of the process's status, each as its numbers. */
  async function idsOf(pid: number) {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const line = (name: string) =>
      (status.match(new RegExp(`^${name}:(.*)$`, 'm'))?.[1] ?? '')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    return { uid: line('Uid'), gid: line('Gid'), groups: line('Groups') };
  }

  it.each([
    ['in a network namespace (nsenter)', `/proc/${process.pid}/ns/net`],
    ["in its parent's network (spawn)", undefined],
  ])('runs it as the uid and its own gid, with no other group, %s', async (_where, netns) => {
    if (!nobody) throw new Error('no nobody user in /etc/passwd');
    const proc = await startProcess({
      name: 'unprivileged',
      command: '/bin/sleep',
      args: ['30'],
      logFile: join(dir.path, 'unprivileged.log'),
      uid: nobody.uid,
      gid: nobody.gid,
      ...(netns ? { netns } : {}),
    });
    try {
      // nsenter changes the ids, then execs the command: read them from sleep itself.
      await proc.waitUntilReady(
        async () => (await readFile(`/proc/${proc.pid}/comm`, 'utf8')).trim() === 'sleep',
      );
      expect(await idsOf(proc.pid)).toEqual({
        uid: Array(4).fill(nobody.uid),
        gid: Array(4).fill(nobody.gid),
        groups: [],
      });
      expect(nobody.uid).not.toBe(0);
      expect(nobody.gid).not.toBe(0);
    } finally {
      await proc.stop();
    }
  });

  it.each([
    ['a uid without its gid', { uid: 65534 }],
    ['a gid without its uid', { gid: 65534 }],
  ])('refuses %s, with or without a namespace', async (_half, ids) => {
    for (const netns of [`/proc/${process.pid}/ns/net`, undefined]) {
      await expect(
        startProcess({
          name: 'half-user',
          command: '/bin/sleep',
          args: ['30'],
          logFile: join(dir.path, 'half-user.log'),
          ...ids,
          ...(netns ? { netns } : {}),
        }),
      ).rejects.toThrow(/half-user: run it as a uid and its gid, both/);
    }
  });
});

describe('freePort', () => {
  it('returns a port that can be bound on 127.0.0.1', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });
});

describe('parseLogSize', () => {
  it('reads LOG_ROTATE_SIZE as npm start is given it, and refuses what is no size', () => {
    expect(['10M', '512K', '1G', '4096'].map(parseLogSize)).toEqual([
      10 * 1024 * 1024,
      512 * 1024,
      1024 ** 3,
      4096,
    ]);
    for (const text of ['', '0', '10MB', '-1M', '1.5M', 'ten']) {
      expect(parseLogSize(text), text).toBeUndefined();
    }
  });
});
