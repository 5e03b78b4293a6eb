// One load-generator process (forked by capacity.ts): sets up its share of the calls, feeds
// them from one media clock, and reports per-subscriber loss, its own CPU and event-loop lag.
// The load is split over several of these so that the generator is not what runs out first.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { JanusSession } from '@frontdesk/media/server';
import { setUpCall, MediaClock, type Call } from './call.ts';
import { loadClip } from './media.ts';

export type GeneratorCommand =
  | { type: 'setup'; httpUrl: string; token: string; adminKey: string; rooms: string[] }
  | { type: 'mark' }
  | { type: 'report' }
  | { type: 'stop' };

export type SubscriberLoss = { expected: number; received: number };

export type GeneratorReply =
  | { type: 'ready'; connected: number; errors: string[]; setupMs: number[] }
  | { type: 'marked' }
  | {
      type: 'report';
      subscribers: SubscriberLoss[];
      cpuSeconds: number;
      lagP99Ms: number;
      troubleEvents: number;
    }
  | { type: 'stopped' };

/** Calls set up at once per process: enough to be quick, few enough not to starve the clock. */
const SETUP_CONCURRENCY = 2;

const send = (reply: GeneratorReply) => process.send?.(reply);
const calls: Call[] = [];
const lag = monitorEventLoopDelay({ resolution: 10 });
let clock: MediaClock | undefined;
let marks: { cpu: NodeJS.CpuUsage; counters: { received: number; highest: number }[][][] };

async function setup(command: Extract<GeneratorCommand, { type: 'setup' }>): Promise<void> {
  const mediaClock = new MediaClock(loadClip());
  clock = mediaClock;
  const errors: string[] = [];
  const setupMs: number[] = [];
  const queue = [...command.rooms];
  const worker = async () => {
    for (let room = queue.shift(); room !== undefined; room = queue.shift()) {
      const startedAt = performance.now();
      try {
        const open = () =>
          JanusSession.create({
            httpUrl: command.httpUrl,
            token: command.token,
            pollFromStart: true,
          });
        calls.push(await setUpCall(open, command.adminKey, room, mediaClock));
        setupMs.push(performance.now() - startedAt);
      } catch (error) {
        errors.push(`${room}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: SETUP_CONCURRENCY }, worker));
  send({ type: 'ready', connected: calls.length, errors, setupMs });
}

const snapshot = () =>
  calls.map((call) => call.received.map((side) => side.map((c) => c.snapshot())));

process.on('message', (command: GeneratorCommand) => {
  switch (command.type) {
    case 'setup':
      void setup(command);
      break;
    case 'mark':
      lag.reset();
      lag.enable();
      marks = { cpu: process.cpuUsage(), counters: snapshot() };
      send({ type: 'marked' });
      break;
    case 'report': {
      const now = snapshot();
      // Per subscriber (one side of a call): its audio and video streams summed.
      const subscribers = now.flatMap((call, c) =>
        call.map((side, s) =>
          side.reduce(
            (sum, stream, i) => {
              const before = marks.counters[c]?.[s]?.[i] ?? {
                received: 0,
                highest: stream.highest,
              };
              return {
                expected: sum.expected + (stream.highest - before.highest),
                received: sum.received + (stream.received - before.received),
              };
            },
            { expected: 0, received: 0 },
          ),
        ),
      );
      const cpu = process.cpuUsage(marks.cpu);
      send({
        type: 'report',
        subscribers,
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
        lagP99Ms: lag.percentile(99) / 1e6,
        troubleEvents: calls.reduce(
          (sum, call) => sum + call.sessions.reduce((n, session) => n + session.trouble.length, 0),
          0,
        ),
      });
      break;
    }
    case 'stop':
      clock?.stop();
      void Promise.all(calls.map((call) => call.close())).finally(() => {
        send({ type: 'stopped' });
        process.exit(0);
      });
      break;
  }
});
