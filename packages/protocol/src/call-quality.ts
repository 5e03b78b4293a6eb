import { z } from 'zod';

/*
 * What each side of a call sends about it while it runs: its media's quality and the agent's
 * holds (the reports read them, packages/protocol/src/reports.ts). Apart from the reports'
 * schemas so that the guest page, which sends these, does not carry those.
 */

export const iceCandidateTypeSchema = z.enum(['host', 'srflx', 'prflx', 'relay']);
export type IceCandidateType = z.infer<typeof iceCandidateTypeSchema>;

const count = z.number().int().nonnegative();
const milliseconds = z.number().int().nonnegative();
const measure = z.number().nonnegative().max(1e9);

/**
 * `PUT /api/calls/:callId/quality`: what one side measured of its media, sent when the call
 * ends for it (or ICE fails). Sent again, it replaces that side's earlier report.
 */
export const callQualityBodySchema = z.strictObject({
  /** From accepting the call to the first remote frame (or sound); `null` if none arrived. */
  setupMs: milliseconds.max(3_600_000).nullable(),
  localCandidateType: iceCandidateTypeSchema.nullable(),
  remoteCandidateType: iceCandidateTypeSchema.nullable(),
  /** How this side reached its TURN relay, when its candidate was a relay. */
  relayProtocol: z.enum(['udp', 'tcp', 'tls']).nullable(),
  packetsReceived: count.max(Number.MAX_SAFE_INTEGER),
  packetsLost: count.max(Number.MAX_SAFE_INTEGER),
  jitterMs: measure.nullable(),
  roundTripMs: measure.nullable(),
  sendKbps: measure.nullable(),
  receiveKbps: measure.nullable(),
  reconnects: count.max(10_000),
  iceFailed: z.boolean(),
});
export type CallQualityBody = z.infer<typeof callQualityBodySchema>;

/** `POST /api/calls/:callId/hold` (the agent who took the call): the call went on hold or back. */
export const callHoldBodySchema = z.strictObject({ onHold: z.boolean() });
export type CallHoldBody = z.infer<typeof callHoldBodySchema>;
