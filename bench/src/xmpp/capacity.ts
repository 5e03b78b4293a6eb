import { randomBytes } from 'node:crypto';
import { ensureCallRoom } from '@frontdesk/chat/server';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { SignJWT } from 'jose';
import { startEjabberd, type RunningEjabberd } from '@frontdesk/infra';
import { rssBytes } from '../proc.ts';
import { mb, ms, type Section } from '../report.ts';
import { summarize, type Summary } from '../stats.ts';
import { XmppSession } from './client.ts';

/** Occupants per MUC room: a company's category room with its agents and waiting guests. */
const ROOM_SIZE = 20;
/** Each session changes its MUC status (its call state) about this often. */
const CHURN_EVERY_S = 20;
/** Rooms whose first occupant times a groupchat round trip every second. */
const PROBE_ROOMS = 50;
const PROBE_TIMEOUT_MS = 5000;
const CONNECT_CONCURRENCY = 50;
/** Rooms made at once: each is 1 + ROOM_SIZE admin API requests, which queue on a loaded box. */
const ROOM_CONCURRENCY = 4;
/** The goal's scale: the round trip is reported there as well as at the largest clean step. */
const GOAL_SESSIONS = 20_000;

type Occupant = { session: XmppSession; jid: string };

type Step = {
  sessions: number;
  rampS: number;
  connectErrors: string[];
  dropped: number;
  latency: Summary;
  probesLost: number;
  presencePerS: number;
  ejabberdRss: number;
  clientLagP99Ms: number;
  clean: boolean;
};

const roomOf = (ejabberd: RunningEjabberd, i: number) =>
  `room${Math.floor(i / ROOM_SIZE)}@${ejabberd.mucService}`;

/** Opens sessions until there are `target`, each joined to its room; returns the failures. */
async function grow(
  ejabberd: RunningEjabberd,
  key: Uint8Array,
  occupants: Occupant[],
  target: number,
): Promise<string[]> {
  const errors: string[] = [];
  // Users may not create rooms (access_create: none): the rooms are made as the API makes a
  // call's room, members-only, each with its occupants as members.
  const admin = { adminApiUrl: ejabberd.adminApiUrl, domain: ejabberd.domain, timeoutMs: 30_000 };
  const rooms = Array.from(
    { length: Math.ceil(target / ROOM_SIZE) - Math.ceil(occupants.length / ROOM_SIZE) },
    (_, k) => Math.ceil(occupants.length / ROOM_SIZE) + k,
  );
  const makeRooms = async () => {
    for (let room = rooms.shift(); room !== undefined; room = rooms.shift()) {
      const first = room * ROOM_SIZE;
      await ensureCallRoom(admin, {
        name: roomOf(ejabberd, first).split('@')[0] as string,
        title: `bench room ${room}`,
        members: Array.from(
          { length: ROOM_SIZE },
          (_, j) => `bench${first + j}@${ejabberd.domain}`,
        ),
      });
    }
  };
  await Promise.all(Array.from({ length: ROOM_CONCURRENCY }, makeRooms));
  let next = occupants.length;
  const worker = async () => {
    for (let i = next++; i < target; i = next++) {
      const localpart = `bench${i}`;
      try {
        const token = await new SignJWT({ jid: `${localpart}@${ejabberd.domain}` })
          .setProtectedHeader({ alg: 'HS256' })
          .setExpirationTime('2h')
          .sign(key);
        const session = await XmppSession.open(ejabberd.wsUrl, ejabberd.domain, localpart, token);
        const jid = `${roomOf(ejabberd, i)}/${localpart}`;
        await session.join(jid, 'Idle');
        occupants.push({ session, jid });
      } catch (error) {
        errors.push(error instanceof Error ? error.message : String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECT_CONCURRENCY }, worker));
  return errors;
}

/** Presence churn and groupchat probes for `seconds`; the probes' round trips in ms. */
async function churnAndProbe(
  occupants: readonly Occupant[],
  seconds: number,
): Promise<{ latencies: number[]; lost: number; presences: number }> {
  const latencies: number[] = [];
  let lost = 0;
  let presences = 0;
  const probes: Promise<void>[] = [];
  const probers = occupants.filter((_, i) => i % ROOM_SIZE === 0).slice(0, PROBE_ROOMS);
  const churnPerTick = occupants.length / CHURN_EVERY_S / 10;
  let carry = 0;
  const churn = setInterval(() => {
    for (carry += churnPerTick; carry >= 1; carry -= 1) {
      const occupant = occupants[Math.floor(Math.random() * occupants.length)] as Occupant;
      occupant.session.setStatus(
        occupant.jid,
        presences % 2 === 0 ? `OpenCall|roundRobin|c${presences}` : 'Idle',
      );
      presences += 1;
    }
  }, 100);
  // Each prober sends once a second at its own moment in it, as people chat: fifty probes sent
  // at the same instant would time the client's own queue of their echoes as much as the server.
  let probeCount = 0;
  const sendProbe = ({ session, jid }: Occupant) => {
    const body = `probe${(probeCount += 1)}`;
    const room = jid.slice(0, jid.indexOf('/'));
    const sentAt = performance.now();
    const echo = session.next(
      (s) => s.startsWith('<message') && s.includes(`<body>${body}</body>`),
      PROBE_TIMEOUT_MS,
    );
    session.send(`<message to='${room}' type='groupchat'><body>${body}</body></message>`);
    probes.push(
      echo.then(
        () => void latencies.push(performance.now() - sentAt),
        () => void (lost += 1),
      ),
    );
  };
  const probeTimers = probers.map((prober, i) =>
    setTimeout(
      () => {
        sendProbe(prober);
        probeTimers[i] = setInterval(() => sendProbe(prober), 1000);
      },
      (i * 1000) / probers.length,
    ),
  );
  await sleep(seconds * 1000);
  clearInterval(churn);
  for (const timer of probeTimers) clearInterval(timer);
  await Promise.all(probes);
  return { latencies, lost, presences };
}

/**
 * XMPP capacity: WebSocket sessions with JWT logins, 20 to a MUC room, stepped up while every
 * session connects and stays, with MUC presence churn and groupchat round trips measured at
 * each step. Stops at the first step that is not clean (a failed or dropped session, a lost probe).
 */
export async function measureXmppCapacity(
  steps: readonly number[],
  seconds: number,
  log: (line: string) => void,
): Promise<Section> {
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-bench-xmpp-'));
  // ejabberd runs as its own user and must traverse the folder (mkdtemp makes it 0700).
  chmodSync(dir, 0o711);
  const key = randomBytes(32);
  const ejabberd = await startEjabberd({ dir, domain: 'bench.localhost', jwtSecret: key });
  const idleRss = rssBytes(ejabberd.beamPid);
  const occupants: Occupant[] = [];
  const results: Step[] = [];
  const lag = monitorEventLoopDelay({ resolution: 10 });
  try {
    for (const target of steps) {
      const startedAt = performance.now();
      const connectErrors = await grow(ejabberd, key, occupants, target);
      const rampS = (performance.now() - startedAt) / 1000;
      lag.reset();
      lag.enable();
      const { latencies, lost, presences } = await churnAndProbe(occupants, seconds);
      lag.disable();
      const dropped = occupants.filter((o) => o.session.closedUnexpectedly).length;
      const step: Step = {
        sessions: occupants.length,
        rampS,
        connectErrors: connectErrors.slice(0, 10),
        dropped,
        latency: summarize(latencies),
        probesLost: lost,
        presencePerS: presences / seconds,
        ejabberdRss: rssBytes(ejabberd.beamPid),
        clientLagP99Ms: lag.percentile(99) / 1e6,
        clean: connectErrors.length === 0 && dropped === 0 && lost === 0,
      };
      results.push(step);
      log(
        `  ${step.sessions} sessions (${rampS.toFixed(1)} s to open): groupchat p50 ` +
          `${ms(step.latency.p50)}, p99 ${ms(step.latency.p99)}, ejabberd ${mb(step.ejabberdRss)}` +
          (step.clean
            ? ''
            : `, ${connectErrors.length} failed, ${dropped} dropped, ${lost} probes lost`),
      );
      if (!step.clean) break;
    }
  } finally {
    for (const { session } of occupants) session.close();
    await ejabberd.stop();
    rmSync(dir, { recursive: true, force: true });
  }

  const best = results.filter((step) => step.clean).at(-1);
  const stopped = results.at(-1);
  const limit =
    stopped && !stopped.clean
      ? `${stopped.sessions} not clean (${stopped.connectErrors[0] ?? `${stopped.dropped} dropped, ${stopped.probesLost} probes lost`})`
      : 'every step clean: the plan ended, not ejabberd';
  if (!best) {
    return {
      rows: [
        {
          figure: 'XMPP capacity (sessions)',
          measured: 'no clean step',
          goal: '≥ 20,000',
          note: limit,
        },
      ],
      data: { steps: results, idleRss },
    };
  }
  // The slope between the smallest and the largest clean step: the idle figure right after
  // start-up still moves with the VM's first collections.
  const first = results[0] as Step;
  const perThousand =
    best === first
      ? ((best.ejabberdRss - idleRss) / best.sessions) * 1000
      : ((best.ejabberdRss - first.ejabberdRss) / (best.sessions - first.sessions)) * 1000;
  // The round trip where the goal is set (20,000 sessions), and where the box stopped being clean.
  const atGoal = results.find((step) => step.clean && step.sessions >= GOAL_SESSIONS);
  return {
    rows: [
      {
        figure: 'XMPP capacity (sessions)',
        measured: `${best.sessions} clean`,
        goal: '≥ 20,000',
        note: `${ROOM_SIZE} per room, ${Math.round(best.presencePerS)} presence changes/s; ${limit}`,
      },
      ...(atGoal && atGoal !== best ? [atGoal, best] : [best]).map((step) => ({
        figure: `XMPP groupchat round trip at ${step.sessions} sessions`,
        measured: `p50 ${ms(step.latency.p50)}, p99 ${ms(step.latency.p99)}`,
        goal: 'p99 < 50 ms',
        note: `${step.latency.n} probes; client lag p99 ${ms(step.clientLagP99Ms)}`,
      })),
      {
        figure: 'XMPP memory per 1,000 sessions',
        measured: mb(perThousand),
        goal: 'reported',
        note: `ejabberd RSS ${mb(idleRss)} idle → ${mb(best.ejabberdRss)}`,
      },
    ],
    data: { steps: results, idleRss, roomSize: ROOM_SIZE, churnEveryS: CHURN_EVERY_S },
    memory: {
      service: 'ejabberd',
      idle: idleRss,
      loaded: best.ejabberdRss,
      load: `${best.sessions} sessions`,
    },
  };
}
