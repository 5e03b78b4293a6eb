import type { SessionContext } from './context.ts';
import { countersFrom, linkQuality, type LinkCounters } from './quality.ts';
import type { RemoteFeeds } from './subscribers.ts';

/**
 * Samples both PeerConnections' statistics at an interval: link quality for the state, and the
 * packet counts that tell a peer's muted stream (no packets) from a live one.
 */
export class QualitySampler {
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastCounters: { send: LinkCounters | null; receive: LinkCounters | null } = {
    send: null,
    receive: null,
  };
  /** Subscriber mid → its packet count at the last sample. */
  private packetsByMid = new Map<string, number>();

  constructor(
    private readonly ctx: SessionContext,
    private readonly feeds: RemoteFeeds,
  ) {}

  async stats(): Promise<{ publish: RTCStatsReport | null; subscribe: RTCStatsReport | null }> {
    const generation = this.ctx.generation;
    const subscriber = generation?.subscriber ? await generation.subscriber : null;
    return {
      publish: (await generation?.publisher.pc?.getStats()) ?? null,
      subscribe: (await subscriber?.pc?.getStats()) ?? null,
    };
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
  }

  private async sample(): Promise<void> {
    const now = performance.now();
    const { publish, subscribe } = await this.stats();
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
    this.feeds.setStalled(stalled);
  }
}
