// Test page for the p2p media session: the agent's (offerer) and the guest's (answerer)
// sessions in one page, over an in-page SignalChannel standing in for the chat. Driven by
// Playwright through `window.p2p`.
import { callSignalSchema, type CallSignal, type SignalChannel } from '@frontdesk/protocol';
import {
  createP2pSession,
  playStream,
  type MediaState,
  type P2pSession,
  type P2pSessionOptions,
} from '../../src/index.ts';

declare global {
  interface Window {
    p2p: typeof p2p;
  }
}

export type Side = 'agent' | 'guest';
export type P2pConfig = Pick<P2pSessionOptions, 'callId' | 'callType' | 'reconnect' | 'debug'>;

/**
 * The chat as the sessions see it: each user's signals go to the named user's listeners with
 * the sender's name stamped by the switchboard (as the chat server stamps the address), and,
 * as the chat session does, only well-formed signals are delivered. A detached user's page is
 * gone: nothing reaches it or leaves it.
 */
class Switchboard {
  private readonly listeners = new Map<string, Set<(from: string, signal: CallSignal) => void>>();
  /** Every signal delivered, for the specs to read PC ids from. */
  readonly delivered: { from: string; to: string; signal: CallSignal }[] = [];

  channel(user: string): SignalChannel & { detach(): void } {
    const own = new Set<(from: string, signal: CallSignal) => void>();
    let attached = true;
    this.listeners.set(user, own);
    return {
      sendSignal: (to, signal) => {
        if (!attached) return Promise.reject(new Error(`${user} is offline`));
        this.deliver(user, to, signal);
        return Promise.resolve();
      },
      onSignal: (listener) => {
        own.add(listener);
        return () => own.delete(listener);
      },
      detach: () => {
        attached = false;
        own.clear();
      },
    };
  }

  /** Delivers asynchronously and in order, as a chat does. */
  deliver(from: string, to: string, raw: unknown): void {
    const signal = callSignalSchema.parse(raw);
    setTimeout(() => {
      this.delivered.push({ from, to, signal });
      for (const listener of this.listeners.get(to) ?? []) listener(from, signal);
    }, 0);
  }
}

interface Participant {
  session: P2pSession;
  channel: ReturnType<Switchboard['channel']>;
  video: HTMLVideoElement;
  statuses: string[];
}

let board = new Switchboard();
let config: P2pConfig | null = null;
const sides = new Map<Side, Participant>();
/** How many times each side asked for ICE servers (the API's POST /calls/:callId/ice). */
let iceRequests: Record<Side, number> = { agent: 0, guest: 0 };
const root = document.querySelector('[data-testid="p2p"]');

function participant(side: Side): Participant {
  const found = sides.get(side);
  if (!found) throw new Error(`no ${side}`);
  return found;
}

const peerOf = (side: Side): Side => (side === 'agent' ? 'guest' : 'agent');

async function open(side: Side, introduce = true): Promise<void> {
  if (!config) throw new Error('not started');
  const channel = board.channel(side);
  const session = createP2pSession({
    ...config,
    role: side === 'agent' ? 'offerer' : 'answerer',
    signalling: channel,
    // Host candidates only: the test's namespace needs neither STUN nor a relay.
    iceServers: () => {
      iceRequests[side] += 1;
      return Promise.resolve([]);
    },
    display: side,
    qualityIntervalMs: 500,
  });
  const video = document.createElement('video');
  video.autoplay = true;
  video.muted = true;
  video.dataset.testid = `${side}-sees`;
  root?.append(video);
  const statuses: string[] = [];
  session.on('status', (status) => statuses.push(status));
  session.on('remoteStream', ({ stream }) => {
    if (stream) void playStream(video, stream);
    else video.srcObject = null;
  });
  sides.set(side, { session, channel, video, statuses });
  await session.connect();
  if (introduce) session.setPeer(peerOf(side));
}

export interface P2pInbound {
  video: { packets: number; frames: number; bytes: number };
  audio: { packets: number; energy: number };
}

function inboundOf(report: RTCStatsReport | null | undefined): P2pInbound {
  const figures: P2pInbound = {
    video: { packets: 0, frames: 0, bytes: 0 },
    audio: { packets: 0, energy: 0 },
  };
  report?.forEach((stat: Record<string, unknown>) => {
    if (stat.type !== 'inbound-rtp') return;
    const n = (key: string) => (typeof stat[key] === 'number' ? (stat[key] as number) : 0);
    if (stat.kind === 'video') {
      figures.video = {
        packets: n('packetsReceived'),
        frames: n('framesDecoded'),
        bytes: n('bytesReceived'),
      };
    } else if (stat.kind === 'audio') {
      figures.audio = { packets: n('packetsReceived'), energy: n('totalAudioEnergy') };
    }
  });
  return figures;
}

const p2p = {
  /** Both sides connect; each is told its peer unless `introduce` is false. */
  async start(next: P2pConfig, introduce = true): Promise<void> {
    board = new Switchboard();
    iceRequests = { agent: 0, guest: 0 };
    config = next;
    await Promise.all([open('agent', introduce), open('guest', introduce)]);
  },

  /** What the API does once the call is answered: tells each side who its peer is. */
  introduce(): void {
    for (const [side, { session }] of sides) session.setPeer(peerOf(side));
  },

  /** How many signals were delivered so far. */
  signalCount(): number {
    return board.delivered.length;
  },

  state(side: Side): MediaState {
    return participant(side).session.state;
  },

  statuses(side: Side): string[] {
    return participant(side).statuses;
  },

  iceRequests(side: Side): number {
    return iceRequests[side];
  },

  /** The signals of a kind `side` sent, in order. */
  signalsFrom(side: Side, kind: CallSignal['kind']): CallSignal[] {
    return board.delivered
      .filter((d) => d.from === side && d.signal.kind === kind)
      .map((d) => d.signal);
  },

  /** What `side` receives from the other, cumulative. */
  async inbound(side: Side) {
    const stats = await participant(side).session.stats();
    return inboundOf(stats.subscribe);
  },

  /** The current PC id of `side`, from the last signal it sent. */
  connectionId(side: Side): string | null {
    return board.delivered.filter((d) => d.from === side).at(-1)?.signal.session ?? null;
  },

  /** A signal as if `from` had sent it to `to` (a stranger, or the peer with a wrong field). */
  inject(from: string, to: Side, signal: unknown): void {
    board.deliver(from, to, signal);
  },

  mute(side: Side, kind: 'audio' | 'video', muted: boolean): Promise<void> {
    return participant(side).session.setMuted(kind, muted);
  },

  hold(side: Side, onHold: boolean): Promise<void> {
    return participant(side).session.setOnHold(onHold);
  },

  restartIce(side: Side): Promise<void> {
    return participant(side).session.restartIce();
  },

  async iceUfrag(side: Side): Promise<string | null> {
    let ufrag: string | null = null;
    (await participant(side).session.stats()).publish?.forEach((stat: Record<string, unknown>) => {
      if (stat.type === 'transport' && typeof stat.iceLocalUsernameFragment === 'string') {
        ufrag = stat.iceLocalUsernameFragment;
      }
    });
    return ufrag;
  },

  qualityReport(side: Side) {
    return participant(side).session.qualityReport();
  },

  close(side: Side, ended: boolean): Promise<void> {
    return participant(side).session.close({ ended });
  },

  /** A page reloads: the old one vanishes without a word, a new one joins. */
  async reload(side: Side): Promise<void> {
    const old = participant(side);
    old.channel.detach();
    await old.session.close();
    await p2p.reopen(side);
  },

  /**
   * A page, closed, is opened again (the agent's: a console that takes the call up again): its
   * new session says hello (the guest) or offers (the agent).
   */
  async reopen(side: Side): Promise<void> {
    const old = participant(side);
    old.channel.detach();
    old.video.remove();
    await open(side);
  },

  async closeAll(): Promise<void> {
    for (const { session } of sides.values()) await session.close();
  },
};

window.p2p = p2p;
