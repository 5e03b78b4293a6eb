import type { CallQualityBody, IceCandidateType } from '@frontdesk/protocol';

/**
 * What one connection to Janus (a generation: our publisher and subscriber PeerConnections)
 * had counted when its statistics were last read. Counters are cumulative from its start.
 */
export interface MediaTotals {
  /** When the statistics were read (`performance.now()`). */
  readonly atMs: number;
  readonly bytesSent: number;
  readonly bytesReceived: number;
  readonly packetsReceived: number;
  readonly packetsLost: number;
  /** The STUN round trips measured on the selected candidate pairs: their sum and count. */
  readonly roundTripSeconds: number;
  readonly roundTrips: number;
  /** The mean jitter of the streams we receive, now; null when we receive none. */
  readonly jitterSeconds: number | null;
  /** The selected candidate pair's route; null before ICE has chosen one. */
  readonly route: MediaRoute | null;
}

export type MediaRoute = Pick<
  CallQualityBody,
  'localCandidateType' | 'remoteCandidateType' | 'relayProtocol'
>;

/** What the session notes of the call as it goes (`performance.now()` times). */
export interface CallMarks {
  /** The call was accepted: when the session began to connect, unless the app says otherwise. */
  acceptedAt: number | null;
  /** Our media was first published (the start of what we sent). */
  publishedAt: number | null;
  /** The peer's first frame, or first sound in a voice call. */
  firstRemoteMediaAt: number | null;
  /** How many times the media came back after the call showed `reconnecting`. */
  reconnects: number;
  iceFailed: boolean;
}

type Stat = Record<string, unknown> & { type: string };
const num = (value: unknown): number => (typeof value === 'number' ? value : 0);
const CANDIDATE_TYPES: readonly string[] = ['host', 'srflx', 'prflx', 'relay'];
const RELAY_PROTOCOLS: readonly string[] = ['udp', 'tcp', 'tls'];

function candidateType(candidate: Stat | undefined): IceCandidateType | null {
  const type = candidate?.candidateType;
  return typeof type === 'string' && CANDIDATE_TYPES.includes(type)
    ? (type as IceCandidateType)
    : null;
}

/**
 * The candidate pair ICE selected: the transport names it (Chromium, Safari); Firefox marks it
 * `selected` instead; else the nominated pair that succeeded.
 */
function selectedPair(report: RTCStatsReport): Stat | undefined {
  let fromTransport: Stat | undefined;
  let marked: Stat | undefined;
  report.forEach((stat: Stat) => {
    if (stat.type === 'transport' && typeof stat.selectedCandidatePairId === 'string') {
      fromTransport ??= report.get(stat.selectedCandidatePairId) as Stat | undefined;
    } else if (
      stat.type === 'candidate-pair' &&
      (stat.selected === true || (stat.nominated === true && stat.state === 'succeeded'))
    ) {
      marked ??= stat;
    }
  });
  return fromTransport ?? marked;
}

function routeOf(report: RTCStatsReport, pair: Stat): MediaRoute {
  const local = report.get(String(pair.localCandidateId)) as Stat | undefined;
  const remote = report.get(String(pair.remoteCandidateId)) as Stat | undefined;
  const localType = candidateType(local);
  const protocol = local?.relayProtocol;
  return {
    localCandidateType: localType,
    remoteCandidateType: candidateType(remote),
    relayProtocol:
      localType === 'relay' && typeof protocol === 'string' && RELAY_PROTOCOLS.includes(protocol)
        ? (protocol as MediaRoute['relayProtocol'])
        : null,
  };
}

/**
 * Reads the totals of one generation from the `getStats()` reports of its two PeerConnections:
 * RTP bytes sent (`outbound-rtp`, every simulcast layer) and received, packets received and
 * lost (`inbound-rtp`), the selected pairs' round trips, and the route. Of two routes, a
 * relayed one is the one reported: it is what tells a call's quality apart.
 */
export function readTotals(
  publish: RTCStatsReport | null,
  subscribe: RTCStatsReport | null,
  atMs: number,
): MediaTotals {
  let bytesSent = 0;
  let bytesReceived = 0;
  let packetsReceived = 0;
  let packetsLost = 0;
  let roundTripSeconds = 0;
  let roundTrips = 0;
  let jitterSum = 0;
  let jitterStreams = 0;
  const routes: MediaRoute[] = [];
  // One PeerConnection carrying both ways (a p2p call) gives the same report as both.
  for (const report of new Set([publish, subscribe])) {
    if (!report) continue;
    report.forEach((stat: Stat) => {
      if (stat.type === 'outbound-rtp') {
        bytesSent += num(stat.bytesSent);
      } else if (stat.type === 'inbound-rtp') {
        bytesReceived += num(stat.bytesReceived);
        packetsReceived += num(stat.packetsReceived);
        // Duplicates make a stream's loss negative; they do not make up for other streams' loss.
        packetsLost += Math.max(0, num(stat.packetsLost));
        if (typeof stat.jitter === 'number') {
          jitterSum += stat.jitter;
          jitterStreams += 1;
        }
      }
    });
    const pair = selectedPair(report);
    if (!pair) continue;
    routes.push(routeOf(report, pair));
    if (num(pair.responsesReceived) > 0 && typeof pair.totalRoundTripTime === 'number') {
      roundTripSeconds += pair.totalRoundTripTime;
      roundTrips += num(pair.responsesReceived);
    }
  }
  return {
    atMs,
    bytesSent,
    bytesReceived,
    packetsReceived,
    packetsLost,
    roundTripSeconds,
    roundTrips,
    jitterSeconds: jitterStreams === 0 ? null : jitterSum / jitterStreams,
    route: routes.find((route) => route.localCandidateType === 'relay') ?? routes[0] ?? null,
  };
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** Bytes over the time between two instants in milliseconds, as kbit/s (bits per ms). */
const kbps = (bytes: number, fromMs: number | null, toMs: number | null): number | null =>
  fromMs === null || toMs === null || toMs <= fromMs ? null : round1((bytes * 8) / (toMs - fromMs));

/**
 * The quality report of one side of a call (`PUT /api/calls/:callId/quality`) from the totals
 * of each generation it had (the last one last), the jitter sampled during the call, and what
 * the session noted. Bitrates are averages: what we sent since we first published and what
 * we received since the peer's first media, up to the last reading.
 */
export function qualityBody(
  generations: readonly MediaTotals[],
  jitter: { readonly sumSeconds: number; readonly samples: number },
  marks: Readonly<CallMarks>,
): CallQualityBody {
  const sum = (key: 'bytesSent' | 'bytesReceived' | 'packetsReceived' | 'packetsLost') =>
    generations.reduce((total, totals) => total + totals[key], 0);
  const roundTrips = generations.reduce((total, totals) => total + totals.roundTrips, 0);
  const roundTripSeconds = generations.reduce(
    (total, totals) => total + totals.roundTripSeconds,
    0,
  );
  const lastReadAt = generations.at(-1)?.atMs ?? null;
  const route = generations.flatMap((totals) => totals.route ?? []).at(-1) ?? null;
  const { acceptedAt, firstRemoteMediaAt } = marks;
  return {
    setupMs:
      acceptedAt === null || firstRemoteMediaAt === null
        ? null
        : Math.min(3_600_000, Math.max(0, Math.round(firstRemoteMediaAt - acceptedAt))),
    localCandidateType: route?.localCandidateType ?? null,
    remoteCandidateType: route?.remoteCandidateType ?? null,
    relayProtocol: route?.relayProtocol ?? null,
    packetsReceived: sum('packetsReceived'),
    packetsLost: sum('packetsLost'),
    jitterMs: jitter.samples === 0 ? null : round1((jitter.sumSeconds / jitter.samples) * 1000),
    roundTripMs: roundTrips === 0 ? null : round1((roundTripSeconds / roundTrips) * 1000),
    sendKbps: kbps(sum('bytesSent'), marks.publishedAt, lastReadAt),
    receiveKbps: kbps(sum('bytesReceived'), firstRemoteMediaAt, lastReadAt),
    reconnects: Math.min(10_000, marks.reconnects),
    iceFailed: marks.iceFailed,
  };
}
