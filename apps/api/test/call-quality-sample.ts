import type { CallQualityBody } from '@frontdesk/protocol';

/** What a side on a good direct connection measures of a call (`PUT /api/calls/:callId/quality`). */
export const goodQuality: CallQualityBody = {
  setupMs: 1200,
  localCandidateType: 'host',
  remoteCandidateType: 'srflx',
  relayProtocol: null,
  packetsReceived: 50_000,
  packetsLost: 12,
  jitterMs: 4.5,
  roundTripMs: 38,
  sendKbps: 900,
  receiveKbps: 1100,
  reconnects: 0,
  iceFailed: false,
};
