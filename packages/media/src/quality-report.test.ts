import { callQualityBodySchema } from '@frontdesk/protocol';
import { describe, expect, it } from 'vitest';
import { qualityBody, readTotals, type CallMarks, type MediaTotals } from './quality-report.ts';

type Stat = Record<string, unknown> & { id: string; type: string };

/** A getStats() report stand-in: RTCStatsReport is a read-only Map keyed by the stats' ids. */
const report = (stats: Stat[]) =>
  new Map(stats.map((stat) => [stat.id, stat])) as unknown as RTCStatsReport;

// What Chromium 156 returned for a camera call between two PeerConnections, 4 s in (fields
// the report does not read left out). ICE checked two pairs; the transport names the one it
// selected, the other also "succeeded" but carries nothing.
const publishStats: Stat[] = [
  {
    id: 'CPirvMD8St_fuBSDCYE',
    type: 'candidate-pair',
    localCandidateId: 'IirvMD8St',
    remoteCandidateId: 'IfuBSDCYE',
    state: 'succeeded',
    nominated: false,
    writable: true,
    bytesSent: 0,
    bytesReceived: 0,
    currentRoundTripTime: 0.001,
    totalRoundTripTime: 0.001,
    responsesReceived: 1,
    requestsSent: 1,
    transportId: 'T01',
  },
  {
    id: 'CPqq0T75zO_QECNq0zM',
    type: 'candidate-pair',
    localCandidateId: 'Iqq0T75zO',
    remoteCandidateId: 'IQECNq0zM',
    state: 'succeeded',
    nominated: true,
    writable: true,
    bytesSent: 261936,
    bytesReceived: 5108,
    currentRoundTripTime: 0.001,
    totalRoundTripTime: 0.006,
    responsesReceived: 5,
    requestsSent: 5,
    transportId: 'T01',
  },
  {
    id: 'IQECNq0zM',
    type: 'remote-candidate',
    candidateType: 'host',
    protocol: 'udp',
    address: 'fd00::2',
    port: 58553,
    transportId: 'T01',
  },
  {
    id: 'IfuBSDCYE',
    type: 'remote-candidate',
    candidateType: 'host',
    protocol: 'udp',
    address: '192.0.2.2',
    port: 43558,
    transportId: 'T01',
  },
  {
    id: 'IirvMD8St',
    type: 'local-candidate',
    candidateType: 'host',
    protocol: 'udp',
    address: '192.0.2.2',
    port: 43389,
    transportId: 'T01',
    networkType: 'ethernet',
  },
  {
    id: 'Iqq0T75zO',
    type: 'local-candidate',
    candidateType: 'host',
    protocol: 'udp',
    address: 'fd00::2',
    port: 55504,
    transportId: 'T01',
    networkType: 'ethernet',
  },
  {
    id: 'OT01A2517647382',
    type: 'outbound-rtp',
    kind: 'audio',
    mid: '0',
    ssrc: 2517647382,
    packetsSent: 200,
    bytesSent: 9544,
    headerBytesSent: 5600,
    transportId: 'T01',
  },
  {
    id: 'OT01V2824846615',
    type: 'outbound-rtp',
    kind: 'video',
    mid: '1',
    ssrc: 2824846615,
    packetsSent: 248,
    bytesSent: 232301,
    headerBytesSent: 7727,
    transportId: 'T01',
  },
  {
    id: 'RIA2517647382',
    type: 'remote-inbound-rtp',
    kind: 'audio',
    ssrc: 2517647382,
    jitter: 0.001729,
    packetsLost: 0,
    totalRoundTripTime: 0,
    roundTripTimeMeasurements: 0,
    localId: 'OT01A2517647382',
  },
  {
    id: 'RIV2824846615',
    type: 'remote-inbound-rtp',
    kind: 'video',
    ssrc: 2824846615,
    jitter: 0.001066,
    packetsLost: 0,
    roundTripTime: 0.002228,
    totalRoundTripTime: 0.004228,
    roundTripTimeMeasurements: 3,
    localId: 'OT01V2824846615',
  },
  {
    id: 'T01',
    type: 'transport',
    selectedCandidatePairId: 'CPqq0T75zO_QECNq0zM',
    iceState: 'connected',
    dtlsState: 'connected',
    bytesSent: 261936,
    bytesReceived: 5108,
    selectedCandidatePairChanges: 1,
  },
];

const subscribeStats: Stat[] = [
  {
    id: 'CPCuPzlsRb_p4gUVrNi',
    type: 'candidate-pair',
    localCandidateId: 'ICuPzlsRb',
    remoteCandidateId: 'Ip4gUVrNi',
    state: 'succeeded',
    nominated: false,
    writable: true,
    bytesSent: 0,
    bytesReceived: 0,
    currentRoundTripTime: 0.001,
    totalRoundTripTime: 0.001,
    responsesReceived: 1,
    requestsSent: 1,
    transportId: 'T01',
  },
  {
    id: 'CPSiInZuB7_cpF+YD2x',
    type: 'candidate-pair',
    localCandidateId: 'ISiInZuB7',
    remoteCandidateId: 'IcpF+YD2x',
    state: 'succeeded',
    nominated: true,
    writable: true,
    bytesSent: 5108,
    bytesReceived: 261936,
    currentRoundTripTime: 0.001,
    totalRoundTripTime: 0.006,
    responsesReceived: 5,
    requestsSent: 5,
    transportId: 'T01',
  },
  {
    id: 'ICuPzlsRb',
    type: 'local-candidate',
    candidateType: 'host',
    protocol: 'udp',
    address: '192.0.2.2',
    port: 43558,
    transportId: 'T01',
    networkType: 'ethernet',
  },
  {
    id: 'ISiInZuB7',
    type: 'local-candidate',
    candidateType: 'host',
    protocol: 'udp',
    address: 'fd00::2',
    port: 58553,
    transportId: 'T01',
    networkType: 'ethernet',
  },
  {
    id: 'IT01A2517647382',
    type: 'inbound-rtp',
    kind: 'audio',
    mid: '0',
    ssrc: 2517647382,
    jitter: 0.001,
    packetsReceived: 200,
    packetsLost: 0,
    bytesReceived: 9544,
    transportId: 'T01',
  },
  {
    id: 'IT01V2824846615',
    type: 'inbound-rtp',
    kind: 'video',
    mid: '1',
    ssrc: 2824846615,
    jitter: 0.001,
    packetsReceived: 248,
    packetsLost: 0,
    bytesReceived: 232301,
    framesDecoded: 78,
    transportId: 'T01',
  },
  {
    id: 'IcpF+YD2x',
    type: 'remote-candidate',
    candidateType: 'host',
    protocol: 'udp',
    address: 'fd00::2',
    port: 55504,
    transportId: 'T01',
  },
  {
    id: 'Ip4gUVrNi',
    type: 'remote-candidate',
    candidateType: 'host',
    protocol: 'udp',
    address: '192.0.2.2',
    port: 43389,
    transportId: 'T01',
  },
  {
    id: 'T01',
    type: 'transport',
    selectedCandidatePairId: 'CPSiInZuB7_cpF+YD2x',
    iceState: 'connected',
    dtlsState: 'connected',
    bytesSent: 5108,
    bytesReceived: 261936,
    selectedCandidatePairChanges: 1,
  },
];

/**
 * The subscriber of a guest behind a firewall that lets only TLS on 443 out: Chromium reached
 * the TURN server over TLS (the local candidate's `relayProtocol`), and the media lost packets.
 */
const relayedSubscribeStats: Stat[] = subscribeStats.map((stat) => {
  if (stat.id === 'ISiInZuB7') {
    return {
      ...stat,
      candidateType: 'relay',
      relayProtocol: 'tls',
      url: 'turns:turn.example.com:443?transport=tcp',
      address: '203.0.113.7',
      port: 61234,
    };
  }
  if (stat.id === 'IT01V2824846615') return { ...stat, packetsLost: 12, jitter: 0.021 };
  if (stat.id === 'IT01A2517647382') return { ...stat, packetsLost: -2, jitter: 0.009 };
  return stat;
});

const marks = (overrides: Partial<CallMarks> = {}): CallMarks => ({
  acceptedAt: 1_000,
  publishedAt: 1_500,
  firstRemoteMediaAt: 2_340,
  reconnects: 0,
  iceFailed: false,
  ...overrides,
});

describe('readTotals', () => {
  it("sums a Chromium call's RTP counters and takes the selected pairs' round trips", () => {
    expect(readTotals(report(publishStats), report(subscribeStats), 5_000)).toEqual({
      atMs: 5_000,
      bytesSent: 241_845,
      bytesReceived: 241_845,
      packetsReceived: 448,
      packetsLost: 0,
      // The selected pairs' 5 checks each, not the other pair's single one.
      roundTripSeconds: 0.012,
      roundTrips: 10,
      jitterSeconds: 0.001,
      route: { localCandidateType: 'host', remoteCandidateType: 'host', relayProtocol: null },
    });
  });

  it('names the relay and how it was reached; a negative loss does not cancel another', () => {
    const totals = readTotals(report(publishStats), report(relayedSubscribeStats), 0);
    expect(totals.route).toEqual({
      localCandidateType: 'relay',
      remoteCandidateType: 'host',
      relayProtocol: 'tls',
    });
    expect(totals.packetsLost).toBe(12);
    expect(totals.jitterSeconds).toBeCloseTo(0.015);
  });

  it("finds Firefox's selected pair, which no transport names", () => {
    // A client behind a NAT: its selected local candidate is server-reflexive.
    const firefox = publishStats
      .filter((stat) => stat.type !== 'transport')
      .map((stat) => {
        if (stat.type === 'candidate-pair') {
          return { ...stat, nominated: undefined, selected: stat.id === 'CPqq0T75zO_QECNq0zM' };
        }
        return stat.id === 'Iqq0T75zO' ? { ...stat, candidateType: 'srflx' } : stat;
      });
    expect(readTotals(report(firefox), null, 0)).toMatchObject({
      route: { localCandidateType: 'srflx', remoteCandidateType: 'host' },
      roundTrips: 5,
      packetsReceived: 0,
      jitterSeconds: null,
    });
  });

  it('has no route before ICE chose a pair', () => {
    const checking = subscribeStats.filter((stat) => stat.type !== 'transport');
    const unchosen = checking.map((stat) =>
      stat.type === 'candidate-pair' ? { ...stat, nominated: false, state: 'in-progress' } : stat,
    );
    expect(readTotals(null, report(unchosen), 0)).toMatchObject({ route: null, roundTrips: 0 });
  });
});

describe('qualityBody', () => {
  const first: MediaTotals = readTotals(report(publishStats), report(subscribeStats), 4_340);

  it('reports one generation: set-up from accept, averages over the call, a valid body', () => {
    const body = qualityBody([first], { sumSeconds: 0.004, samples: 2 }, marks());
    expect(body).toEqual({
      setupMs: 1_340,
      localCandidateType: 'host',
      remoteCandidateType: 'host',
      relayProtocol: null,
      packetsReceived: 448,
      packetsLost: 0,
      jitterMs: 2,
      roundTripMs: 1.2,
      // 241,845 bytes sent over the 2,840 ms since publishing; received over the 2,000 ms
      // since the first remote frame.
      sendKbps: 681.3,
      receiveKbps: 967.4,
      reconnects: 0,
      iceFailed: false,
    });
    expect(callQualityBodySchema.parse(body)).toEqual(body);
  });

  it('adds up the generations a reconnect left behind; the latest route counts', () => {
    const relayed = readTotals(report(publishStats), report(relayedSubscribeStats), 9_340);
    const body = qualityBody(
      [first, relayed],
      { sumSeconds: 0.03, samples: 3 },
      marks({ reconnects: 1, iceFailed: true }),
    );
    expect(body).toMatchObject({
      localCandidateType: 'relay',
      relayProtocol: 'tls',
      packetsReceived: 896,
      packetsLost: 12,
      jitterMs: 10,
      roundTripMs: 1.2,
      sendKbps: round1((241_845 * 2 * 8) / (9_340 - 1_500)),
      receiveKbps: round1((241_845 * 2 * 8) / (9_340 - 2_340)),
      reconnects: 1,
      iceFailed: true,
    });
  });

  it('has no set-up time or receive rate when no remote media arrived', () => {
    const body = qualityBody(
      [first],
      { sumSeconds: 0, samples: 0 },
      marks({ firstRemoteMediaAt: null }),
    );
    expect(body).toMatchObject({ setupMs: null, receiveKbps: null, jitterMs: null });
    expect(body.sendKbps).toBeGreaterThan(0);
  });

  it('knows nothing of a call whose media never connected', () => {
    const body = qualityBody(
      [],
      { sumSeconds: 0, samples: 0 },
      marks({ publishedAt: null, firstRemoteMediaAt: null, iceFailed: true }),
    );
    expect(body).toEqual({
      setupMs: null,
      localCandidateType: null,
      remoteCandidateType: null,
      relayProtocol: null,
      packetsReceived: 0,
      packetsLost: 0,
      jitterMs: null,
      roundTripMs: null,
      sendKbps: null,
      receiveKbps: null,
      reconnects: 0,
      iceFailed: true,
    });
    expect(callQualityBodySchema.safeParse(body).success).toBe(true);
  });

  it('counts a first frame that came before the accept was known as no set-up time at all', () => {
    expect(
      qualityBody([first], { sumSeconds: 0, samples: 0 }, marks({ acceptedAt: 2_400 })).setupMs,
    ).toBe(0);
  });
});

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
