import type { CallQualityBody } from '@frontdesk/protocol';
import type { Generation, SessionContext } from './context.ts';
import { countersFrom, linkQuality, type LinkCounters } from './quality.ts';
import { qualityBody, readTotals, type MediaTotals } from './quality-report.ts';
import type { RemoteFeeds } from './subscribers.ts';

/**
 * While a remote stream stands still, how often its packet count is read again: its picture
 * comes back with its packets (after a network change), not up to a whole sample later.
 */
const RESUME_CHECK_MS = 200;

/**
 * Samples both PeerConnections' statistics at an interval: link quality for the state, the
 * packet counts that tell a peer's muted stream (no packets) from a live one, and the totals
 * of the whole call for its quality report.
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
  /** Subscriber mid → its packet count at the last sample. */
  private packetsByMid = new Map<string, number>();
  /**
   * The totals of the generations a lost session took away, as last read; the current one's
   * latest reading, kept when the call ends (its PeerConnections are closed by then).
   */
  private readonly earlier: MediaTotals[] = [];
  private latest: { generation: Generation; totals: MediaTotals } | null = null;
  private readonly retired = new WeakSet<Generation>();
  private readonly jitter = { sumSeconds: 0, samples: 0 };

  constructor(
    private readonly ctx: SessionContext,
    private readonly feeds: RemoteFeeds,
  ) {}

  async stats(): Promise<{ publish: RTCStatsReport | null; subscribe: RTCStatsReport | null }> {
    return (await this.read()).reports;
  }

  private async read(): Promise<{
    generation: Generation | null;
    reports: { publish: RTCStatsReport | null; subscribe: RTCStatsReport | null };
  }> {
    const generation = this.ctx.generation;
    // A PeerConnection closed by a teardown under way has no statistics left: none is read.
    const subscriber = await generation?.subscriber?.catch(() => null);
    const statsOf = (pc: RTCPeerConnection | null | undefined) =>
      pc?.getStats().catch(() => null) ?? Promise.resolve(null);
    return {
      generation,
      reports: {
        publish: await statsOf(generation?.publisher.pc),
        subscribe: await statsOf(subscriber?.pc),
      },
    };
  }

  /**
   * The call's quality report: the current generation is read once more if the call is still
   * on; after its end the last sample stands in for it (at most one interval old).
   */
  async report(): Promise<CallQualityBody> {
    const { generation, reports } = await this.read();
    if (generation) this.record(generation, reports, performance.now());
    const totals = this.latest ? [...this.earlier, this.latest.totals] : this.earlier;
    return qualityBody(totals, this.jitter, this.ctx.marks);
  }

  private record(
    generation: Generation,
    reports: { publish: RTCStatsReport | null; subscribe: RTCStatsReport | null },
    atMs: number,
  ): void {
    // A reading that resolves late must not count a generation twice, or go back in time.
    if (this.retired.has(generation) || (!reports.publish && !reports.subscribe)) return;
    if (this.latest?.generation === generation && this.latest.totals.atMs > atMs) return;
    const totals = readTotals(reports.publish, reports.subscribe, atMs);
    if (this.latest && this.latest.generation !== generation) {
      this.earlier.push(this.latest.totals);
      this.retired.add(this.latest.generation);
    }
    this.latest = { generation, totals };
    if (totals.jitterSeconds !== null) {
      this.jitter.sumSeconds += totals.jitterSeconds;
      this.jitter.samples += 1;
    }
  }

  start(): void {
    const interval = this.ctx.options.qualityIntervalMs ?? 1000;
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
    const { generation, reports } = await this.read();
    const { publish, subscribe } = reports;
    if (generation) this.record(generation, reports, now);
    const next = {
      send: publish ? countersFrom(publish, 'send', now) : null,
      receive: subscribe ? countersFrom(subscribe, 'receive', now) : null,
    };
    const before = this.lastCounters;
    this.lastCounters = next;
    this.ctx.update({
      quality: {
        send: before.send && next.send ? linkQuality(before.send, next.send) : null,
        receive: before.receive && next.receive ? linkQuality(before.receive, next.receive) : null,
      },
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
    this.feeds.setStalled(stalled);
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
    const subscriber = await this.ctx.generation?.subscriber?.catch(() => null);
    const report = await subscriber?.pc?.getStats().catch(() => null);
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
