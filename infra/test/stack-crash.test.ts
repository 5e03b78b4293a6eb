// The real servers under the supervisor: each one SIGKILLed mid-run comes back by itself, and
// /api/health says "down" meanwhile and "up" again after.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stunAnswers } from '../src/coturn.ts';
import { freePort } from '../src/process.ts';
import { startStack, type RunningStack, type ServerName } from '../src/stack.ts';
import { tempDir } from './helpers.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
let stack: RunningStack;
const log: string[] = [];

beforeAll(async () => {
  dir = await tempDir('frontdesk-stack-crash-test-');
  // Without DATABASE_URL: the project's own PostgreSQL runs in the data folder, so it can be
  // killed too.
  stack = await startStack({
    repoRoot: resolve(import.meta.dirname, '../..'),
    dataDir: dir.path,
    host: '127.0.0.1',
    port: await freePort(),
    xmppDomain: 'frontdesk.localhost',
    ...(existsSync('/sys/class/net/veth0') ? { janusIceEnforceList: 'veth0' } : {}),
    janusRtpPorts: [20000, 20200],
    seedDemo: false,
    logLevel: 'warn',
    log: (line) => log.push(line),
  });
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await dir?.remove();
}, 30_000);

/** The status /api/health answers, 0 when nothing answers (the API itself is down). */
async function health(): Promise<number> {
  try {
    return (await fetch(`${stack.url}/api/health`, { signal: AbortSignal.timeout(3000) })).status;
  } catch {
    return 0;
  }
}

const pidOf: Record<ServerName, () => number | undefined> = {
  database: () => stack.pids.database,
  xmpp: () => stack.pids.ejabberd,
  janus: () => stack.pids.janus,
  turn: () => stack.pids.turn,
  api: () => stack.pids.api,
  proxy: () => stack.pids.proxy,
};

describe('a server killed with SIGKILL', () => {
  // The API last: PostgreSQL's death may take it along, and it is restarted then as well.
  it.each(['janus', 'xmpp', 'database', 'api'] as const)(
    '%s is restarted and health recovers',
    async (server) => {
      expect(await health()).toBe(200);
      const restartsBefore = stack.servers[server]?.restarts ?? 0;
      const pid = pidOf[server]() as number;
      const killed = Date.now();
      process.kill(pid, 'SIGKILL');
      const seen = new Set<number>();
      let downAt: number | undefined;
      for (;;) {
        const status = await health();
        seen.add(status);
        if (status !== 200) downAt ??= Date.now();
        if (status === 200 && downAt !== undefined) break;
        expect(Date.now() - killed).toBeLessThan(50_000);
        await new Promise((done) => setTimeout(done, 100));
      }
      const recoveredMs = Date.now() - killed;
      // Down while it was down: 503 from the API, or no answer while the API itself is gone.
      expect([...seen].some((status) => status === 503 || status === 0)).toBe(true);
      // The server may answer a moment before its own readiness check has passed.
      while (!stack.servers[server]?.up) {
        expect(Date.now() - killed).toBeLessThan(55_000);
        await new Promise((done) => setTimeout(done, 50));
      }
      expect(stack.servers[server]?.restarts).toBe(restartsBefore + 1);
      expect(pidOf[server]()).not.toBe(pid);
      expect(log.some((line) => line.includes('was killed by SIGKILL; restarting in'))).toBe(true);
      console.log(`${server}: health 200 again ${recoveredMs} ms after SIGKILL`);
    },
    60_000,
  );
});

/** What /metrics says of coturn: whether its CLI answered, and the allocations it holds. */
async function turnMetrics(): Promise<{ up?: number; allocations?: number }> {
  const text = await (await fetch(`${stack.url}/metrics`)).text();
  const sample = (pattern: RegExp) => {
    const value = pattern.exec(text)?.[1];
    return value === undefined ? undefined : Number(value);
  };
  return {
    up: sample(/^frontdesk_dependency_up\{dependency="turn"\} (\S+)$/m),
    allocations: sample(/^frontdesk_turn_allocations (\S+)$/m),
  };
}

describe('coturn killed with SIGKILL', () => {
  // The API does not depend on it (/api/health stays up): what counts is that browsers find it
  // again where they were told, the same port, and that the metrics say it was down.
  it('is restarted on the same port and answers STUN again', async () => {
    const [host, port] = (/^turn:([^:]+):(\d+)/.exec(stack.turn.urls[0] ?? '') ?? []).slice(1);
    expect(await stunAnswers(host as string, Number(port))).toBe(true);
    expect(await turnMetrics()).toEqual({ up: 1, allocations: 0 });
    const restartsBefore = stack.servers.turn?.restarts ?? 0;
    const pid = stack.pids.turn;
    const killed = Date.now();
    process.kill(pid, 'SIGKILL');
    const seen: { up?: number; allocations?: number }[] = [];
    while (!(stack.servers.turn?.restarts === restartsBefore + 1 && stack.servers.turn.up)) {
      expect(Date.now() - killed).toBeLessThan(20_000);
      seen.push(await turnMetrics());
      await new Promise((done) => setTimeout(done, 50));
    }
    expect(seen).toContainEqual({ up: 0, allocations: Number.NaN });
    expect(stack.pids.turn).not.toBe(pid);
    expect(await stunAnswers(host as string, Number(port))).toBe(true);
    // The API is not restarted: the new coturn has the same CLI port and password.
    expect(await turnMetrics()).toEqual({ up: 1, allocations: 0 });
    console.log(`turn: answering STUN again ${Date.now() - killed} ms after SIGKILL`);
  }, 30_000);
});
