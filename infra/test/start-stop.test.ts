// `npm start` as a service manager and a crash treat it: a SIGTERM to the npm process alone
// stops everything, and a start after a SIGKILL of the supervisor, or of every process, comes
// up by itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAppsIfStale } from '../src/build-apps.ts';
import { prepareDataDir, type DataDir } from '../src/data-dir.ts';
import { freePort, isProcessAlive, listProcesses } from '../src/process.ts';
import { leftoversOf } from '../src/stack.ts';
import { tempDir } from './helpers.ts';

const repoRoot = resolve(import.meta.dirname, '../..');
let dir: Awaited<ReturnType<typeof tempDir>>;
let data: DataDir;
let port: number;
let current: Start | undefined;

type Start = { npm: ChildProcess; output: () => string; ready: Promise<void> };

/** `npm start` on the test's data folder and port; `ready` once it printed the ready block. */
function npmStart(): Start {
  const npm = spawn('npm', ['start'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      FRONTDESK_DATA_DIR: data.root,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      npm_config_update_notifier: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`not ready in 50 s:\n${output}`)), 50_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Frontdesk is ready')) {
        clearTimeout(timer);
        done();
      }
    };
    npm.stdout?.on('data', read);
    npm.stderr?.on('data', read);
    npm.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`npm start exited with ${code}:\n${output}`));
    });
  });
  ready.catch(() => undefined);
  return { npm, output: () => output, ready };
}

/** PIDs of the servers of this data folder, found the way the next start finds them. */
function servers(): number[] {
  const kinds = leftoversOf(data);
  return listProcesses()
    .filter((proc) => kinds.some((kind) => kind.matches(proc)))
    .map((proc) => proc.pid);
}

/** A process and every process below it, from /proc. */
function withDescendants(root: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // ended meanwhile
    }
  }
  const found = [root];
  for (let i = 0; i < found.length; i += 1) {
    for (const [pid, parent] of parentOf) if (parent === found[i]) found.push(pid);
  }
  return found;
}

const [postgresUid, postgresGid] = (
  readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((line) => line.startsWith('postgres:'))
    ?.split(':') ?? []
)
  .slice(2, 4)
  .map(Number);

async function healthStatus(): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/api/health`);
  return response.status;
}

const until = async (done: () => boolean, timeoutMs: number, what: string) => {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

beforeAll(async () => {
  // Under `npm test` the apps are built already; a run of this file alone must not spend its
  // tests' time on a build.
  buildAppsIfStale(repoRoot, () => undefined);
  dir = await tempDir('frontdesk-start-stop-test-');
  data = prepareDataDir(dir.path);
  port = await freePort();
  current = npmStart();
  await current.ready;
}, 120_000);

afterAll(async () => {
  if (current?.npm.exitCode === null) current.npm.kill('SIGTERM');
  await until(() => current?.npm.exitCode !== null && servers().length === 0, 20_000, 'stop');
  await dir?.remove();
}, 30_000);

describe('npm start', () => {
  it('refuses a second start on the same data folder', async () => {
    const second = npmStart();
    await expect(second.ready).rejects.toThrow(/already runs with the data folder/);
    expect(await healthStatus()).toBe(200);
  }, 30_000);

  it('after a SIGKILL of npm and the supervisor, stops the servers they left and comes up', async () => {
    const previous = current as Start;
    const left = servers();
    expect(left.length).toBeGreaterThanOrEqual(4);
    const supervisor = withDescendants(previous.npm.pid as number)[1] as number;
    process.kill(previous.npm.pid as number, 'SIGKILL');
    process.kill(supervisor, 'SIGKILL');
    await until(
      () => previous.npm.exitCode !== null || previous.npm.signalCode !== null,
      5000,
      'npm killed',
    );
    expect(left.every(isProcessAlive)).toBe(true);
    current = npmStart();
    await current.ready;
    expect(current.output()).toMatch(/Stopped what a killed run had left: .*PostgreSQL/);
    expect(left.filter(isProcessAlive)).toEqual([]);
    expect(await healthStatus()).toBe(200);
  }, 60_000);

  it('after a SIGKILL of every process, with pid files naming live strangers, comes up', async () => {
    const previous = current as Start;
    const every = withDescendants(previous.npm.pid as number);
    expect(every.length).toBeGreaterThanOrEqual(6);
    for (const pid of every) process.kill(pid, 'SIGKILL');
    await until(() => every.every((pid) => !isProcessAlive(pid)), 5000, 'all killed');
    // After a reboot or a long while, the PIDs in the pid files belong to somebody else; to
    // PostgreSQL, only a process of its own user looks like a live postmaster.
    const stranger = spawn('sleep', ['60'], { uid: postgresUid, gid: postgresGid });
    const postmasterPid = join(data.postgres, 'postmaster.pid');
    const lines = readFileSync(postmasterPid, 'utf8').split('\n');
    writeFileSync(postmasterPid, [String(stranger.pid), ...lines.slice(1)].join('\n'));
    writeFileSync(join(data.ejabberd, 'ejabberd.pid'), `${stranger.pid}\n`);
    try {
      current = npmStart();
      await current.ready;
    } finally {
      stranger.kill('SIGKILL');
    }
    expect(await healthStatus()).toBe(200);
  }, 60_000);

  it('stops everything on a SIGTERM to the npm process alone', async () => {
    const running = current as Start;
    const every = withDescendants(running.npm.pid as number);
    const asked = Date.now();
    running.npm.kill('SIGTERM');
    await until(() => running.npm.exitCode !== null, 30_000, 'npm exit');
    expect(running.output()).toContain('SIGTERM: stopping…');
    expect(running.output()).toContain('Stopped.');
    expect(every.filter(isProcessAlive)).toEqual([]);
    expect(servers()).toEqual([]);
    console.log(`stopped ${every.length} processes in ${Date.now() - asked} ms`);
  }, 30_000);
});
