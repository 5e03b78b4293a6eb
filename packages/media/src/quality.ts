import type { LinkQuality, QualityLevel } from '@frontdesk/protocol';

/** Cumulative counters of one direction of a PeerConnection at one instant. */
export interface LinkCounters {
  readonly atMs: number;
  readonly bytes: number;
  readonly packets: number;
  readonly lost: number;
  readonly rttMs: number | null;
}

type Stat = Record<string, unknown> & { type: string };
const num = (value: unknown): number => (typeof value === 'number' ? value : 0);

/**
 * Sums the RTP counters of a `getStats()` report for sending (`outbound-rtp`, loss from the
 * receiver's `remote-inbound-rtp`) or receiving (`inbound-rtp`). RTT is the selected
 * candidate pair's, which both directions share.
 */
export function countersFrom(
  report: RTCStatsReport,
  direction: 'send' | 'receive',
  atMs: number,
): LinkCounters {
  let bytes = 0;
  let packets = 0;
  let lost = 0;
  let rttMs: number | null = null;
  report.forEach((raw: Stat) => {
    if (direction === 'send' && raw.type === 'outbound-rtp') {
      bytes += num(raw.bytesSent);
      packets += num(raw.packetsSent);
    } else if (direction === 'send' && raw.type === 'remote-inbound-rtp') {
      lost += Math.max(0, num(raw.packetsLost));
    } else if (direction === 'receive' && raw.type === 'inbound-rtp') {
      bytes += num(raw.bytesReceived);
      packets += num(raw.packetsReceived);
      lost += Math.max(0, num(raw.packetsLost));
    } else if (
      raw.type === 'candidate-pair' &&
      raw.nominated === true &&
      raw.state === 'succeeded' &&
      typeof raw.currentRoundTripTime === 'number'
    ) {
      rttMs = raw.currentRoundTripTime * 1000;
    }
  });
  return { atMs, bytes, packets, lost, rttMs };
}

/** Good below 2 % loss and 150 ms RTT, fair below 8 % and 400 ms, poor beyond. */
export function qualityLevel(lossPercent: number, rttMs: number | null): QualityLevel {
  const rtt = rttMs ?? 0;
  if (lossPercent < 2 && rtt < 150) return 'good';
  if (lossPercent < 8 && rtt < 400) return 'fair';
  return 'poor';
}

/** Quality over the window between two samples of the same link. */
export function linkQuality(before: LinkCounters, after: LinkCounters): LinkQuality {
  const seconds = Math.max((after.atMs - before.atMs) / 1000, 0.001);
  const bytes = Math.max(0, after.bytes - before.bytes);
  const received = Math.max(0, after.packets - before.packets);
  const lost = Math.max(0, after.lost - before.lost);
  const expected = received + lost;
  const lossPercent = expected === 0 ? 0 : Math.min(100, (lost / expected) * 100);
  return {
    kbps: Math.round((bytes * 8) / seconds / 100) / 10,
    lossPercent: Math.round(lossPercent * 10) / 10,
    rttMs: after.rttMs === null ? null : Math.round(after.rttMs),
    level: qualityLevel(lossPercent, after.rttMs),
  };
}
