import { describe, expect, it } from 'vitest';
import { countersFrom, linkQuality, qualityLevel } from './quality.ts';

/** A getStats() report stand-in: RTCStatsReport is a read-only Map. */
const report = (stats: Record<string, unknown>[]) =>
  new Map(stats.map((s, i) => [String(i), s])) as unknown as RTCStatsReport;

describe('quality', () => {
  it('sums inbound RTP and takes the selected pair RTT', () => {
    const counters = countersFrom(
      report([
        {
          type: 'inbound-rtp',
          kind: 'audio',
          bytesReceived: 1000,
          packetsReceived: 50,
          packetsLost: 1,
        },
        {
          type: 'inbound-rtp',
          kind: 'video',
          bytesReceived: 9000,
          packetsReceived: 100,
          packetsLost: 2,
        },
        {
          type: 'candidate-pair',
          nominated: true,
          state: 'succeeded',
          currentRoundTripTime: 0.012,
        },
        { type: 'candidate-pair', nominated: false, state: 'failed', currentRoundTripTime: 9 },
        { type: 'outbound-rtp', bytesSent: 5 },
      ]),
      'receive',
      1000,
    );
    expect(counters).toEqual({ atMs: 1000, bytes: 10_000, packets: 150, lost: 3, rttMs: 12 });
  });

  it('reads sending loss from the receiver reports', () => {
    const counters = countersFrom(
      report([
        { type: 'outbound-rtp', bytesSent: 2000, packetsSent: 20 },
        { type: 'remote-inbound-rtp', packetsLost: 4 },
      ]),
      'send',
      0,
    );
    expect(counters).toMatchObject({ bytes: 2000, packets: 20, lost: 4, rttMs: null });
  });

  it('turns two samples into bitrate, loss and a level', () => {
    const before = { atMs: 0, bytes: 0, packets: 0, lost: 0, rttMs: 10 };
    expect(
      linkQuality(before, { atMs: 2000, bytes: 125_000, packets: 990, lost: 10, rttMs: 10 }),
    ).toEqual({
      kbps: 500,
      lossPercent: 1,
      rttMs: 10,
      level: 'good',
    });
    expect(
      linkQuality(before, { atMs: 1000, bytes: 0, packets: 90, lost: 10, rttMs: 10 }).level,
    ).toBe('poor');
  });

  it('grades loss and round-trip time', () => {
    expect(qualityLevel(0, null)).toBe('good');
    expect(qualityLevel(3, 50)).toBe('fair');
    expect(qualityLevel(0, 250)).toBe('fair');
    expect(qualityLevel(8, 50)).toBe('poor');
    expect(qualityLevel(0, 500)).toBe('poor');
  });
});
