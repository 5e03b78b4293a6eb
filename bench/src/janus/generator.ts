// One load-generator process (forked by capacity.ts): sets up its share of the calls, feeds
// them from one media clock, and reports per-subscriber loss, its own CPU and event-loop lag.
// The load is split over several of these so that the generator is not what runs out first.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { JanusSession } from '@frontdesk/media/server';
import { setUpCall, MediaClock, type Call, type RoomEntry } from './call.ts';
import { loadClip } from './media.ts';

/** A call whose room the API made: its Janus server, and each side's Janus token and entry. */
export type ApiRoomCall = {
  room: string;
  httpUrl: string;
  sides: readonly [RoomEntry & { janusToken: string }, RoomEntry & { janusToken: string }];
};

export type GeneratorCommand =
  | { type: 'setup'; httpUrl: string; token: string; adminKey: string; rooms: string[] }
  | { type: 'join'; calls: ApiRoomCall[] }
  | { type: 'mark' }
  | { type: 'report' }
  | { type: 'stop' };

export type SubscriberLoss = { expected: number; received: number };

export type GeneratorReply =
  /** `wallMs`: from the first call's start to the last's end, the process's boot left out. */
  | { type: 'ready'; connected: number; errors: string[]; setupMs: number[]; wallMs: number }
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

/** One call to set up: its room's name and how its media starts. */
type Job = { room: string; start: (clock: MediaClock) => Promise<Call> };

async function setup(jobs: Job[]): Promise<void> {
  const mediaClock = new MediaClock(loadClip());
  clock = mediaClock;
  const errors: string[] = [];
  const setupMs: number[] = [];
  const queue = [...jobs];
  const setUpFrom = performance.now();
  const worker = async () => {
    for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
      const startedAt = performance.now();
      try {
        calls.push(await job.start(mediaClock));
        setupMs.push(performance.now() - startedAt);
      } catch (error) {
        errors.push(`${job.room}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: SETUP_CONCURRENCY }, worker));
  send({
    type: 'ready',
    connected: calls.length,
    errors,
    setupMs,
    wallMs: performance.now() - setUpFrom,
  });
}

const session = (httpUrl: string, token: string) =>
  JanusSession.create({ httpUrl, token, pollFromStart: true });

const snapshot = () =>
  calls.map((call) => call.received.map((side) => side.map((c) => c.snapshot())));

process.on('message', (command: GeneratorCommand) => {
  switch (command.type) {
    case 'setup':
      void setup(
        command.rooms.map((room) => ({
          room,
          start: (mediaClock) =>
            setUpCall(
              () => session(command.httpUrl, command.token),
              { adminKey: command.adminKey },
              room,
              mediaClock,
            ),
        })),
      );
      break;
    case 'join':
      void setup(
        command.calls.map(({ room, httpUrl, sides }) => ({
          room,
          start: (mediaClock) =>
            setUpCall(
              (side) => session(httpUrl, sides[side].janusToken),
              { entries: sides },
              room,
              mediaClock,
            ),
        })),
      );
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
