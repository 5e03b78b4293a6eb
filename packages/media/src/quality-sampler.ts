import type { CallQualityBody } from '@frontdesk/protocol';
import type { Generation, SessionContext } from './context.ts';
import { countersFrom, linkQuality, type LinkCounters } from './quality.ts';
import { qualityBody, readTotals, type CallMarks, type MediaTotals } from './quality-report.ts';
import type { RemoteFeeds } from './subscribers.ts';
import type { MediaState } from './types.ts';

/**
 * While a remote stream stands still, how often its packet count is read again: its picture
 * comes back with its packets (after a network change), not up to a whole sample later.
 */
const RESUME_CHECK_MS = 200;

/** The statistics of a connection's sending and receiving PeerConnections, read at one time. */
export interface MediaReports {
  readonly publish: RTCStatsReport | null;
  readonly subscribe: RTCStatsReport | null;
}

/**
 * What a session's media is sampled from. `read` names the connection the reports came from
 * (`key`: counted as one whole, a new key after a re-connection) and, when one PeerConnection
 * carries both ways, gives its one report as both.
 */
export interface SampledMedia {
  readonly marks: CallMarks;
  readonly intervalMs: number;
  read(): Promise<{ key: object | null; reports: MediaReports }>;
  /** The receiving side's statistics alone, read often while a remote stream stands still. */
  readReceived(): Promise<RTCStatsReport | null>;
  quality(quality: MediaState['quality']): void;
  /** The receiving mids whose packet count stood still since the last sample. */
  setStalled(stalled: Set<string>): void;
}

/** A PeerConnection's statistics; none when it has none (closed, or no PeerConnection). */
export const statsOf = (pc: RTCPeerConnection | null | undefined): Promise<RTCStatsReport | null> =>
  pc?.getStats().catch(() => null) ?? Promise.resolve(null);

async function subscriberStats(generation: Generation | null): Promise<RTCStatsReport | null> {
  // A PeerConnection closed by a teardown under way has no statistics left: none is read.
  const subscriber = await generation?.subscriber?.catch(() => null);
  return statsOf(subscriber?.pc);
}

/** A Janus session's media: the current generation's publisher and subscriber. */
export function janusMedia(ctx: SessionContext, feeds: RemoteFeeds): SampledMedia {
  return {
    marks: ctx.marks,
    intervalMs: ctx.options.qualityIntervalMs ?? 1000,
    async read() {
      const generation: Generation | null = ctx.generation;
      return {
        key: generation,
        reports: {
          publish: await statsOf(generation?.publisher.pc),
          subscribe: await subscriberStats(generation),
        },
      };
    },
    readReceived: () => subscriberStats(ctx.generation),
    quality: (quality) => ctx.update({ quality }),
    setStalled: (stalled) => feeds.setStalled(stalled),
  };
}

/**
 * Samples a session's statistics at an interval: link quality for the state, the packet
 * counts that tell a peer's muted stream (no packets) from a live one, and the totals of the
 * whole call for its quality report.
 */
export class QualitySampler {
  private timer: ReturnType<typeof setInterval> | undefined;
  private resumeTimer: ReturnType<typeof setInterval> | undefined;
  /** The mids the last sample found standing still and no check since found moving. */
  private stalled = new Set<string>();
  private lastCounters: { send: LinkCounters | null; receive: LinkCounters | null } = {
    send: null,
    receive: null,
  };
  /** Receiving mid → its packet count at the last sample. */
  private packetsByMid = new Map<string, number>();
  /**
   * The totals of the connections a re-connection took away, as last read; the current one's
   * latest reading, kept when the call ends (its PeerConnections are closed by then).
   */
  private readonly earlier: MediaTotals[] = [];
  private latest: { key: object; totals: MediaTotals } | null = null;
  private readonly retired = new WeakSet<object>();
  private readonly jitter = { sumSeconds: 0, samples: 0 };

  constructor(private readonly media: SampledMedia) {}

  async stats(): Promise<MediaReports> {
    return (await this.media.read()).reports;
  }

  /**
   * The call's quality report: the current generation is read once more if the call is still
   * on; after its end the last sample stands in for it (at most one interval old).
   */
  async report(): Promise<CallQualityBody> {
    const { key, reports } = await this.media.read();
    if (key) this.record(key, reports, performance.now());
    const totals = this.latest ? [...this.earlier, this.latest.totals] : this.earlier;
    return qualityBody(totals, this.jitter, this.media.marks);
  }

  private record(key: object, reports: MediaReports, atMs: number): void {
    // A reading that resolves late must not count a connection twice, or go back in time.
    if (this.retired.has(key) || (!reports.publish && !reports.subscribe)) return;
    if (this.latest?.key === key && this.latest.totals.atMs > atMs) return;
    const totals = readTotals(reports.publish, reports.subscribe, atMs);
    if (this.latest && this.latest.key !== key) {
      this.earlier.push(this.latest.totals);
      this.retired.add(this.latest.key);
    }
    this.latest = { key, totals };
    if (totals.jitterSeconds !== null) {
      this.jitter.sumSeconds += totals.jitterSeconds;
      this.jitter.samples += 1;
    }
  }

  start(): void {
    const interval = this.media.intervalMs;
    if (interval <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      void this.sample().catch(() => undefined);
    }, interval);
  }

  stop(): void {
    clearInterval(this.timer);
    clearInterval(this.resumeTimer);
  }

  private async sample(): Promise<void> {
    const now = performance.now();
    const { key, reports } = await this.media.read();
    const { publish, subscribe } = reports;
    if (key) this.record(key, reports, now);
    const next = {
      send: publish ? countersFrom(publish, 'send', now) : null,
      receive: subscribe ? countersFrom(subscribe, 'receive', now) : null,
    };
    const before = this.lastCounters;
    this.lastCounters = next;
    this.media.quality({
      send: before.send && next.send ? linkQuality(before.send, next.send) : null,
      receive: before.receive && next.receive ? linkQuality(before.receive, next.receive) : null,
    });
    if (subscribe) this.detectStalledStreams(subscribe);
  }

  /** A remote stream whose packet count stands still between samples is muted for the UI. */
  private detectStalledStreams(report: RTCStatsReport): void {
    const packets = new Map<string, number>();
    report.forEach((stat: Record<string, unknown>) => {
      if (stat.type === 'inbound-rtp' && typeof stat.mid === 'string') {
        packets.set(stat.mid, Number(stat.packetsReceived ?? 0));
      }
    });
    const stalled = new Set(
      [...packets]
        .filter(([mid, count]) => this.packetsByMid.get(mid) === count)
        .map(([mid]) => mid),
    );
    this.packetsByMid = packets;
    this.setStalled(stalled);
  }

  private setStalled(stalled: Set<string>): void {
    this.stalled = stalled;
    this.media.setStalled(stalled);
    if (stalled.size === 0) {
      clearInterval(this.resumeTimer);
      this.resumeTimer = undefined;
    } else {
      this.resumeTimer ??= setInterval(() => {
        void this.checkResumed().catch(() => undefined);
      }, RESUME_CHECK_MS);
    }
  }

  /** Between samples: a stalled stream whose packets count up again is live at once. */
  private async checkResumed(): Promise<void> {
    const report = await this.media.readReceived();
    if (!report) return;
    const moving = new Set<string>();
    report.forEach((stat: Record<string, unknown>) => {
      if (stat.type !== 'inbound-rtp' || typeof stat.mid !== 'string') return;
      const before = this.packetsByMid.get(stat.mid);
      if (before !== undefined && Number(stat.packetsReceived ?? 0) > before) moving.add(stat.mid);
    });
    const still = [...this.stalled].filter((mid) => !moving.has(mid));
    if (still.length < this.stalled.size) this.setStalled(new Set(still));
  }
}
