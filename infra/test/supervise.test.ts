import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isProcessAlive,
  processGroupMembers,
  startProcess,
  type SupervisedProcess,
} from '../src/process.ts';
import { claimDataDir, stopLeftovers, Supervised, type RestartPolicy } from '../src/supervise.ts';
import { tempDir } from './helpers.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('frontdesk-supervise-test-');
});
afterAll(async () => {
  await dir?.remove();
});

const fast: RestartPolicy = { firstDelayMs: 100, maxDelayMs: 400, stableAfterMs: 1500 };

/**
 * A stand-in server (`sleep` under a shell, started fresh each time) under supervision; `failing`
 * makes starts throw while it returns true.
 */
async function supervisedSleeper(
  name: string,
  {
    policy = fast,
    failing = () => false,
  }: { policy?: RestartPolicy; failing?: () => boolean } = {},
) {
  const starts: number[] = [];
  const lines: string[] = [];
  const start = async (): Promise<SupervisedProcess> => {
    if (failing()) throw new Error('port taken\nmore detail');
    starts.push(Date.now());
    return startProcess({
      name,
      command: '/bin/sh',
      args: ['-c', 'exec sleep 60'],
      logFile: join(dir.path, `${name}.log`),
    });
  };
  const supervised = new Supervised(await start(), {
    name,
    start,
    policy,
    log: (line) => lines.push(line),
  });
  return { supervised, starts, lines };
}

const until = async (done: () => boolean, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('Supervised', () => {
  it('restarts a killed server after a delay that doubles, and says so', async () => {
    const { supervised, starts, lines } = await supervisedSleeper('doubling');
    for (const expected of [1, 2, 3]) {
      process.kill(supervised.current.pid, 'SIGKILL');
      await until(() => !supervised.up);
      await until(() => supervised.up && supervised.restarts === expected);
    }
    const gaps = starts.slice(1).map((at, i) => at - (starts[i] as number));
    // 100, 200, 400 ms of backoff (plus the time each run lived).
    expect(gaps[1]).toBeGreaterThanOrEqual(200);
    expect(gaps[2]).toBeGreaterThanOrEqual(400);
    expect(lines).toContain('doubling was killed by SIGKILL; restarting in 0.4 s');
    await supervised.stop();
    expect(isProcessAlive(supervised.current.pid)).toBe(false);
  });

  it('waits the first delay again after a run that lasted', async () => {
    const { supervised, lines } = await supervisedSleeper('stable');
    process.kill(supervised.current.pid, 'SIGKILL');
    await until(() => supervised.restarts === 1);
    process.kill(supervised.current.pid, 'SIGKILL');
    await until(() => supervised.restarts === 2);
    await new Promise((resolve) => setTimeout(resolve, fast.stableAfterMs));
    process.kill(supervised.current.pid, 'SIGKILL');
    await until(() => supervised.restarts === 3);
    expect(lines.filter((line) => line.includes('restarting'))).toEqual([
      'stable was killed by SIGKILL; restarting in 0.1 s',
      'stable was killed by SIGKILL; restarting in 0.2 s',
      'stable was killed by SIGKILL; restarting in 0.1 s',
    ]);
    await supervised.stop();
  });

  it('keeps trying a server that fails to start, and a kick ends the wait', async () => {
    let broken = false;
    const { supervised, lines } = await supervisedSleeper('flaky', {
      policy: { firstDelayMs: 100, maxDelayMs: 60_000, stableAfterMs: 60_000 },
      failing: () => broken,
    });
    broken = true;
    process.kill(supervised.current.pid, 'SIGKILL');
    await until(() => lines.length >= 4);
    expect(lines[1]).toBe('flaky did not start (port taken); restarting in 0.2 s');
    // The wait is now 0.8 s or more; what it waited for is back.
    broken = false;
    const kicked = Date.now();
    supervised.kick();
    await until(() => supervised.up, 300);
    expect(Date.now() - kicked).toBeLessThan(300);
    await supervised.stop();
  });

  it('neither restarts a server stopped on purpose nor one that dies while the stack stops', async () => {
    const { supervised, starts } = await supervisedSleeper('stopping');
    await supervised.restart();
    expect(starts).toHaveLength(2);
    expect(supervised.up).toBe(true);
    supervised.halt();
    process.kill(supervised.current.pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(starts).toHaveLength(2);
    await supervised.stop();
  });
});

describe('claimDataDir', () => {
  it('refuses a folder a live supervisor holds, and takes over a dead one’s', async () => {
    const release = claimDataDir(dir.path);
    const file = join(dir.path, 'supervisor.pid');
    const mine = await readFile(file, 'utf8');
    // Another live process holding the claim (its own PID and start time).
    const other = spawn('sleep', ['30']);
    const otherPid = other.pid as number;
    const otherStart = Number(
      (await readFile(`/proc/${otherPid}/stat`, 'utf8')).split(') ')[1]?.split(' ')[19],
    );
    await writeFile(file, JSON.stringify({ pid: otherPid, startTime: otherStart }));
    expect(() => claimDataDir(dir.path)).toThrow(
      /already runs with the data folder .* \(pid \d+\)/,
    );
    // The same PID with another start time is a reused PID, not a supervisor.
    await writeFile(file, JSON.stringify({ pid: otherPid, startTime: otherStart - 1 }));
    claimDataDir(dir.path)();
    other.kill('SIGKILL');
    await writeFile(file, mine);
    release();
    await expect(readFile(file)).rejects.toThrow(/ENOENT/);
  });
});

describe('stopLeftovers', () => {
  it('stops the recognised processes and their groups, gracefully first, and nothing else', async () => {
    const marker = join(dir.path, 'leftover-marker');
    const spawnDetached = (args: string[]) =>
      spawn('/bin/sh', args, { detached: true, stdio: 'ignore' });
    // One obeys SIGTERM; one ignores it; both have a helper in their group; one is not ours.
    const polite = spawnDetached(['-c', `sleep 60; : ${marker}-polite`]);
    const stubborn = spawnDetached([
      '-c',
      `trap "" TERM; sleep 60 & sleep 61; : ${marker}-stubborn`,
    ]);
    const bystander = spawnDetached(['-c', 'exec sleep 62']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    const stopped = await stopLeftovers(
      [
        { name: 'polite', matches: (p) => p.args.some((a) => a.includes(`${marker}-polite`)) },
        { name: 'stubborn', matches: (p) => p.args.some((a) => a.includes(`${marker}-stubborn`)) },
      ],
      500,
    );
    expect(stopped.sort()).toEqual([
      `polite (pid ${polite.pid})`,
      `stubborn (pid ${stubborn.pid})`,
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    for (const child of [polite, stubborn]) {
      expect(isProcessAlive(child.pid as number)).toBe(false);
      expect(processGroupMembers(child.pid as number)).toEqual([]);
    }
    expect(isProcessAlive(bystander.pid as number)).toBe(true);
    bystander.kill('SIGKILL');
  });
});
