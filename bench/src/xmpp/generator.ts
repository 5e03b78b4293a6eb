// One load-generator process (forked by capacity.ts): opens its share of the XMPP sessions, keeps
// them alive at the apps' cadence, and runs the presence churn and groupchat probes of its rooms.
// The sessions are split over several of these: one Node event loop cannot keep up with 20,000
// sessions' traffic, and one process may hold only as many sockets as the open-files limit.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { SignJWT } from 'jose';
import { XmppSession } from './client.ts';

/** One session to open: who, on which node, in which room under which nick. */
export type SessionPlan = {
  localpart: string;
  url: string;
  /** `room@service/nick`. */
  occupantJid: string;
  /** The room's first occupant times a groupchat round trip every second. */
  prober: boolean;
};

export type GeneratorCommand =
  /** `deadlineMs`: no session is begun after it, so a box too busy to open them ends the step. */
  | { type: 'grow'; sessions: SessionPlan[]; domain: string; key: string; deadlineMs: number }
  | { type: 'measure'; seconds: number }
  | { type: 'stop' };

/** What went wrong with the apps' cadence: each lapse is a session an app would drop. */
export type Cadence = {
  /** Keep-alive ack requests sent, and those unanswered within the apps' 6 s. */
  acksAsked: number;
  keepAliveLapses: number;
  /** Room self-pings sent, and those unanswered within the apps' 5 s. */
  roomChecks: number;
  roomChecksLate: number;
};

export type GeneratorReply =
  | {
      type: 'grown';
      opened: number;
      failed: number;
      /** Sessions not begun before the deadline. */
      late: number;
      errors: string[];
      cadence: Cadence;
    }
  | {
      type: 'measured';
      latencies: number[];
      lost: number;
      presences: number;
      dropped: number;
      cpuSeconds: number;
      lagP99Ms: number;
      cadence: Cadence;
    }
  | { type: 'stopped' };

/** Each session changes its MUC status (its call state) about this often. */
const CHURN_EVERY_S = 20;
const PROBE_TIMEOUT_MS = 5000;
/** Sessions opened at once per process. */
const CONNECT_CONCURRENCY = 25;
/**
 * packages/chat: an ack request every 4 s, dropped after 6 s unanswered (connection.ts), and a
 * self-ping in each joined room every 5 s, given 5 s (rooms.ts).
 */
const KEEPALIVE_EVERY_MS = 4000;
const KEEPALIVE_TIMEOUT_MS = 6000;
const ROOM_CHECK_EVERY_MS = 5000;
const TICK_MS = 100;

type Occupant = { session: XmppSession; plan: SessionPlan };

const send = (reply: GeneratorReply) => process.send?.(reply);
const occupants: Occupant[] = [];
const lag = monitorEventLoopDelay({ resolution: 10 });
let cadence: Cadence = { acksAsked: 0, keepAliveLapses: 0, roomChecks: 0, roomChecksLate: 0 };

const takeCadence = (): Cadence => {
  const taken = cadence;
  cadence = { acksAsked: 0, keepAliveLapses: 0, roomChecks: 0, roomChecksLate: 0 };
  return taken;
};

/**
 * The apps' cadence for every open session, each at its own moment in the period (the apps'
 * timers start when each page connects): a tick walks one slice of the sessions.
 */
let tick = 0;
setInterval(() => {
  const now = performance.now();
  const keepAliveSlices = KEEPALIVE_EVERY_MS / TICK_MS;
  const roomCheckSlices = ROOM_CHECK_EVERY_MS / TICK_MS;
  tick += 1;
  for (let i = 0; i < occupants.length; i += 1) {
    const { session, plan } = occupants[i] as Occupant;
    if (session.ackAskedAt !== undefined && now - session.ackAskedAt > KEEPALIVE_TIMEOUT_MS) {
      cadence.keepAliveLapses += 1;
      session.ackAskedAt = undefined;
    }
    if (session.roomCheck && now - session.roomCheck.sentAt > ROOM_CHECK_EVERY_MS) {
      cadence.roomChecksLate += 1;
      session.roomCheck = undefined;
    }
    if (i % keepAliveSlices === tick % keepAliveSlices) {
      session.askAck(now);
      cadence.acksAsked += 1;
    }
    // As rooms.ts: no second check while one is pending.
    if (i % roomCheckSlices === tick % roomCheckSlices && !session.roomCheck) {
      session.checkRoom(plan.occupantJid, now);
      cadence.roomChecks += 1;
    }
  }
}, TICK_MS).unref();

async function grow(
  plans: SessionPlan[],
  domain: string,
  key: Uint8Array,
  deadlineMs: number,
): Promise<void> {
  const errors: string[] = [];
  let failed = 0;
  let opened = 0;
  const queue = [...plans];
  const deadline = performance.now() + deadlineMs;
  const worker = async () => {
    for (let plan = queue.shift(); plan !== undefined; plan = queue.shift()) {
      if (performance.now() > deadline) {
        queue.unshift(plan);
        return;
      }
      try {
        const token = await new SignJWT({ jid: `${plan.localpart}@${domain}` })
          .setProtectedHeader({ alg: 'HS256' })
          .setExpirationTime('2h')
          .sign(key);
        const session = await XmppSession.open(plan.url, domain, plan.localpart, token);
        await session.startSession(domain);
        await session.join(plan.occupantJid, 'Idle');
        occupants.push({ session, plan });
        opened += 1;
      } catch (error) {
        failed += 1;
        if (errors.length < 10) errors.push(error instanceof Error ? error.message : String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECT_CONCURRENCY }, worker));
  send({ type: 'grown', opened, failed, late: queue.length, errors, cadence: takeCadence() });
}

/** Presence churn and groupchat probes for `seconds`; the probes' round trips in ms. */
async function measure(seconds: number): Promise<void> {
  takeCadence();
  lag.reset();
  lag.enable();
  const cpu = process.cpuUsage();
  const latencies: number[] = [];
  let lost = 0;
  let presences = 0;
  const probes: Promise<void>[] = [];
  const churnPerTick = occupants.length / CHURN_EVERY_S / 10;
  let carry = 0;
  const churn = setInterval(() => {
    for (carry += churnPerTick; carry >= 1; carry -= 1) {
      const { session, plan } = occupants[Math.floor(Math.random() * occupants.length)] as Occupant;
      session.setStatus(
        plan.occupantJid,
        presences % 2 === 0 ? `OpenCall|roundRobin|c${presences}` : 'Idle',
      );
      presences += 1;
    }
  }, 100);
  // Each prober sends once a second at its own moment in it, as people chat: probes sent at the
  // same instant would time the client's own queue of their echoes as much as the server.
  const probers = occupants.filter(({ plan }) => plan.prober);
  let probeCount = 0;
  const sendProbe = ({ session, plan }: Occupant) => {
    const body = `probe${process.pid}-${(probeCount += 1)}`;
    const room = plan.occupantJid.slice(0, plan.occupantJid.indexOf('/'));
    const sentAt = performance.now();
    const echo = session.next(
      (s) => s.startsWith('<message') && s.includes(`<body>${body}</body>`),
      'groupchat echo',
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
  lag.disable();
  const used = process.cpuUsage(cpu);
  send({
    type: 'measured',
    latencies,
    lost,
    presences,
    dropped: occupants.filter(({ session }) => session.closedUnexpectedly).length,
    cpuSeconds: (used.user + used.system) / 1e6,
    lagP99Ms: lag.percentile(99) / 1e6,
    cadence: takeCadence(),
  });
}

process.on('message', (command: GeneratorCommand) => {
  switch (command.type) {
    case 'grow':
      void grow(
        command.sessions,
        command.domain,
        Buffer.from(command.key, 'base64'),
        command.deadlineMs,
      );
      break;
    case 'measure':
      void measure(command.seconds);
      break;
    case 'stop':
      for (const { session } of occupants) session.close();
      send({ type: 'stopped' });
      process.disconnect();
      break;
  }
});
