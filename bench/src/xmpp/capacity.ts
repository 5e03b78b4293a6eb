import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { ensureCallRoom } from '@frontdesk/chat/server';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { joinEjabberdCluster, startEjabberd, type RunningEjabberd } from '@frontdesk/infra';
import { nextMessage } from '../ipc.ts';
import { cpuWindow, machineWindow, rssBytes } from '../proc.ts';
import { mb, ms, pct, type Section } from '../report.ts';
import { summarize, type Summary } from '../stats.ts';
import type { Cadence, GeneratorCommand, GeneratorReply, SessionPlan } from './generator.ts';

/** Occupants per MUC room: a company's category room with its agents and waiting guests. */
const ROOM_SIZE = 20;
/** Rooms whose first occupant times a groupchat round trip every second. */
const PROBE_ROOMS = 50;
/** Rooms made at once on each node: each is 1 + ROOM_SIZE admin API requests. */
const ROOM_CONCURRENCY = 4;
/** The goal's scale: the round trip is reported there as well as at the largest clean step. */
const GOAL_SESSIONS = 20_000;
/**
 * Load-generator processes: each holds a share of the sessions' sockets (one process may hold
 * at most the open-files limit, 20,000 here) and of their traffic (one event loop fell behind).
 */
const GENERATORS = 4;
/**
 * The cluster's nodes, on addresses of the benchmark's own network namespace (scripts/isolated).
 * Each node is one Erlang VM, which holds one socket per session under the same open-files limit.
 */
const NODE_ADDRESSES = ['10.201.0.21', '10.201.0.22'];
/**
 * Opening a step's sessions stops being begun after this long (issue 22 wants the whole plan in
 * 15 minutes): on a box whose CPU is taken by others, ejabberd opens a few sessions a second.
 */
const OPEN_DEADLINE_S = 90;

type Step = {
  sessions: number;
  /** Seconds to make the step's new rooms through the admin API, and to make them and open its sessions. */
  roomsS: number;
  rampS: number;
  connectErrors: string[];
  failed: number;
  /** Sessions not begun within OPEN_DEADLINE_S. */
  late: number;
  dropped: number;
  latency: Summary;
  probesLost: number;
  presencePerS: number;
  /** Each node's RSS and share of a core over the window. */
  ejabberdRss: number[];
  ejabberdCpu: number[];
  generatorCpu: number;
  machineBusy: number;
  clientLagP99Ms: number;
  /** The apps' keep-alive and room checks, over the ramp and the window together. */
  cadence: Cadence;
  clean: boolean;
};

const ask = (child: ChildProcess, command: GeneratorCommand) => child.send(command);

/** Every generator's answer to one command. */
function askAll<T extends GeneratorReply['type']>(
  generators: readonly ChildProcess[],
  commands: (g: number) => GeneratorCommand,
  reply: T,
): Promise<Extract<GeneratorReply, { type: T }>[]> {
  return Promise.all(
    generators.map((child, g) => {
      const answer = nextMessage<GeneratorReply, T>(child, reply);
      ask(child, commands(g));
      return answer;
    }),
  );
}

const addCadence = (all: readonly Cadence[]): Cadence => ({
  acksAsked: all.reduce((sum, c) => sum + c.acksAsked, 0),
  keepAliveLapses: all.reduce((sum, c) => sum + c.keepAliveLapses, 0),
  roomChecks: all.reduce((sum, c) => sum + c.roomChecks, 0),
  roomChecksLate: all.reduce((sum, c) => sum + c.roomChecksLate, 0),
});

/** Starts `count` ejabberd nodes, the second and later joined to the first (decision 0040). */
async function startNodes(dir: string, key: Uint8Array, count: number): Promise<RunningEjabberd[]> {
  const cookie = randomBytes(24).toString('hex');
  const nodes: RunningEjabberd[] = [];
  try {
    for (const address of NODE_ADDRESSES.slice(0, count)) {
      execFileSync('ip', ['addr', 'replace', `${address}/32`, 'dev', 'lo']);
      nodes.push(
        await startEjabberd({
          dir: join(dir, address),
          domain: 'bench.localhost',
          jwtSecret: key,
          cluster: { address, cookie, adminApiAllowFrom: [] },
        }),
      );
    }
    const [seed, ...others] = nodes as [RunningEjabberd, ...RunningEjabberd[]];
    for (const node of others) await joinEjabberdCluster(node, seed.nodeName);
  } catch (error) {
    await Promise.all(nodes.map((node) => node.stop()));
    throw error;
  }
  return nodes;
}

/**
 * Makes rooms `from` to `to - 1` as the API makes a call's room (users may not create rooms,
 * access_create: none): members-only, each with its occupants as members. The API reaches the
 * nodes' admin API through the balancer's round robin, so room k is made on node k mod n, where
 * its process then lives.
 */
async function makeRooms(nodes: readonly RunningEjabberd[], from: number, to: number) {
  const domain = (nodes[0] as RunningEjabberd).domain;
  const queues = nodes.map((_, n) =>
    Array.from({ length: to - from }, (_, k) => from + k).filter(
      (room) => room % nodes.length === n,
    ),
  );
  await Promise.all(
    nodes.flatMap((node, n) => {
      const queue = queues[n] as number[];
      const admin = { adminApiUrl: node.adminApiUrl, domain, timeoutMs: 30_000 };
      return Array.from({ length: ROOM_CONCURRENCY }, async () => {
        for (let room = queue.shift(); room !== undefined; room = queue.shift()) {
          const first = room * ROOM_SIZE;
          await ensureCallRoom(admin, {
            name: `room${room}`,
            title: `bench room ${room}`,
            members: Array.from({ length: ROOM_SIZE }, (_, j) => `bench${first + j}@${domain}`),
          });
        }
      });
    }),
  );
}

/**
 * The sessions `from` to `to - 1`: session i is in room i / ROOM_SIZE, whose first occupant of
 * the first PROBE_ROOMS rooms probes, and connects to node i mod n, as the balancer's leastconn
 * spreads them.
 */
function plans(nodes: readonly RunningEjabberd[], from: number, to: number): SessionPlan[] {
  return Array.from({ length: to - from }, (_, k) => {
    const i = from + k;
    const room = Math.floor(i / ROOM_SIZE);
    const node = nodes[i % nodes.length] as RunningEjabberd;
    return {
      localpart: `bench${i}`,
      url: node.wsUrl,
      occupantJid: `room${room}@${node.mucService}/bench${i}`,
      prober: i % ROOM_SIZE === 0 && room < PROBE_ROOMS,
    };
  });
}

/**
 * XMPP capacity: WebSocket sessions with JWT logins, 20 to a MUC room, stepped up while every
 * session connects and stays, on an ejabberd cluster of `nodeCount` nodes, with the apps' keep-alive
 * and room checks, MUC presence churn and groupchat round trips measured at each step. Stops at
 * the first step that is not clean (a failed or dropped session, a lost probe, a keep-alive an app
 * would have dropped the connection over).
 */
export async function measureXmppCapacity(
  steps: readonly number[],
  seconds: number,
  nodeCount: number,
  log: (line: string) => void,
): Promise<Section> {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-bench-xmpp-'));
  // ejabberd runs as its own user and must traverse the folder (mkdtemp makes it 0700).
  chmodSync(dir, 0o711);
  const key = randomBytes(32);
  const nodes = await startNodes(dir, key, nodeCount);
  const domain = (nodes[0] as RunningEjabberd).domain;
  const rss = () => nodes.map((node) => rssBytes(node.beamPid));
  const idleRss = rss();
  const generators = Array.from({ length: GENERATORS }, () =>
    fork(new URL('./generator.ts', import.meta.url), { execArgv: ['--import', 'tsx'] }),
  );
  const results: Step[] = [];
  let open = 0;
  try {
    for (const target of steps) {
      const startedAt = performance.now();
      const firstRoom = Math.ceil(open / ROOM_SIZE);
      await makeRooms(nodes, firstRoom, Math.ceil(target / ROOM_SIZE));
      const roomsS = (performance.now() - startedAt) / 1000;
      const newSessions = plans(nodes, open, target);
      const grown = await askAll(
        generators,
        (g) => ({
          type: 'grow',
          domain,
          key: Buffer.from(key).toString('base64'),
          deadlineMs: OPEN_DEADLINE_S * 1000 - (performance.now() - startedAt),
          sessions: newSessions.filter(
            (_, k) => Math.floor((open + k) / ROOM_SIZE) % GENERATORS === g,
          ),
        }),
        'grown',
      );
      const rampS = (performance.now() - startedAt) / 1000;
      const failed = grown.reduce((sum, g) => sum + g.failed, 0);
      const late = grown.reduce((sum, g) => sum + g.late, 0);
      open = target;
      const ejabberdCpu = nodes.map((node) => cpuWindow(node.beamPid));
      const machine = machineWindow();
      const measured = await askAll(generators, () => ({ type: 'measure', seconds }), 'measured');
      const latencies = measured.flatMap((m) => m.latencies);
      const lost = measured.reduce((sum, m) => sum + m.lost, 0);
      const dropped = measured.reduce((sum, m) => sum + m.dropped, 0);
      const cadence = addCadence([...grown, ...measured].map((r) => r.cadence));
      const step: Step = {
        sessions: target - failed - late,
        roomsS,
        rampS,
        connectErrors: grown.flatMap((g) => g.errors).slice(0, 10),
        failed,
        late,
        dropped,
        latency: summarize(latencies),
        probesLost: lost,
        presencePerS: measured.reduce((sum, m) => sum + m.presences, 0) / seconds,
        ejabberdRss: rss(),
        ejabberdCpu: ejabberdCpu.map((window) => window.stop()),
        generatorCpu: measured.reduce((sum, m) => sum + m.cpuSeconds, 0) / seconds,
        machineBusy: machine.stop(),
        clientLagP99Ms: Math.max(...measured.map((m) => m.lagP99Ms)),
        cadence,
        clean:
          failed === 0 &&
          late === 0 &&
          dropped === 0 &&
          lost === 0 &&
          cadence.keepAliveLapses === 0,
      };
      results.push(step);
      const total = (values: number[]) => values.reduce((sum, value) => sum + value, 0);
      log(
        `  ${step.sessions} sessions (${rampS.toFixed(1)} s to open, ${roomsS.toFixed(1)} s of it making rooms): groupchat p50 ` +
          `${ms(step.latency.p50)}, p99 ${ms(step.latency.p99)}; ejabberd ${mb(total(step.ejabberdRss))}, ` +
          `${step.ejabberdCpu.map(pct).join(' + ')} of a core; generators ${pct(step.generatorCpu)} ` +
          `(lag p99 ${ms(step.clientLagP99Ms)}); machine busy ${pct(step.machineBusy)}; ` +
          `keep-alives ${cadence.acksAsked} (${cadence.keepAliveLapses} over 6 s), room checks ` +
          `${cadence.roomChecks} (${cadence.roomChecksLate} over 5 s)` +
          (step.clean
            ? ''
            : `; ${failed} failed (${step.connectErrors[0] ?? '-'}), ${late} not begun within ${OPEN_DEADLINE_S} s, ${dropped} dropped, ${lost} probes lost`),
      );
      if (!step.clean) break;
    }
  } finally {
    await Promise.all(
      generators.map(async (child) => {
        const stopped = nextMessage<GeneratorReply, 'stopped'>(child, 'stopped').catch(
          () => undefined,
        );
        ask(child, { type: 'stop' });
        await stopped;
        child.kill();
      }),
    );
    await Promise.all(nodes.map((node) => node.stop()));
    rmSync(dir, { recursive: true, force: true });
  }

  const best = results.filter((step) => step.clean).at(-1);
  const stopped = results.at(-1);
  const limit =
    stopped && !stopped.clean
      ? `${stopped.sessions + stopped.failed + stopped.late} not clean (${stopped.failed} failed${stopped.connectErrors[0] ? `: ${stopped.connectErrors[0]}` : ''}, ${stopped.late} not begun within ${OPEN_DEADLINE_S} s, ${stopped.dropped} dropped, ${stopped.probesLost} probes lost, ${stopped.cadence.keepAliveLapses} keep-alives over 6 s; p99 ${ms(stopped.latency.p99)})`
      : 'every step clean: the plan ended, not ejabberd';
  const shape = `${nodes.length === 1 ? 'one ejabberd node' : `a cluster of ${nodes.length} ejabberd nodes`}, ${GENERATORS} generator processes`;
  const data = {
    steps: results,
    idleRss,
    roomSize: ROOM_SIZE,
    nodes: nodes.length,
    generators: GENERATORS,
  };
  if (!best) {
    return {
      rows: [
        {
          figure: 'XMPP capacity (sessions)',
          measured: 'no clean step',
          goal: '≥ 20,000',
          note: `${shape}; ${limit}`,
        },
      ],
      data,
    };
  }
  const total = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0);
  // The slope between the smallest and the largest clean step: the idle figure right after
  // start-up still moves with the VM's first collections.
  const first = results[0] as Step;
  const perThousand =
    best === first
      ? ((total(best.ejabberdRss) - total(idleRss)) / best.sessions) * 1000
      : ((total(best.ejabberdRss) - total(first.ejabberdRss)) / (best.sessions - first.sessions)) *
        1000;
  // The round trip from half the goal up (issue 22's 10,000, 15,000, 20,000), or the largest
  // clean step when the box stopped below it.
  const reported = results.filter((step) => step.clean && step.sessions >= GOAL_SESSIONS / 2);
  return {
    rows: [
      {
        figure: 'XMPP capacity (sessions)',
        measured: `${best.sessions} clean`,
        goal: '≥ 20,000',
        note: `${shape}; ${ROOM_SIZE} per room, ${Math.round(best.presencePerS)} presence changes/s, the apps' keep-alive and room checks; ${limit}`,
      },
      ...(reported.length > 0 ? reported : [best]).map((step) => ({
        figure: `XMPP groupchat round trip at ${step.sessions} sessions`,
        measured: `p50 ${ms(step.latency.p50)}, p99 ${ms(step.latency.p99)}`,
        goal: 'p99 < 50 ms',
        note: `${step.latency.n} probes; ejabberd ${step.ejabberdCpu.map(pct).join(' + ')} of a core, generators ${pct(step.generatorCpu)} (lag p99 ${ms(step.clientLagP99Ms)})`,
      })),
      {
        figure: 'XMPP memory per 1,000 sessions',
        measured: mb(perThousand),
        goal: 'reported',
        note: `ejabberd RSS ${mb(total(idleRss))} idle → ${mb(total(best.ejabberdRss))} (all nodes)`,
      },
    ],
    data,
    memory: {
      service: 'ejabberd',
      idle: total(idleRss),
      loaded: total(best.ejabberdRss),
      load: `${best.sessions} sessions, ${nodes.length} node${nodes.length === 1 ? '' : 's'}`,
    },
  };
}
