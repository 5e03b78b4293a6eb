import { z } from 'zod';
import { callIdSchema } from './call-id.ts';

/*
 * The signalling of a p2p call (issue 23, decision 0045): what the guest's and the agent's
 * browsers tell each other, over the chat sessions they already have, to set up one
 * RTCPeerConnection between them. Each signal is a JSON text inside a `<signal>` element of this
 * namespace in a bodiless message to the other party's bare JID.
 *
 * SECURITY: the chat server routes a message between any two users of the domain, so anyone can
 * send a signal. A receiver acts only on signals whose sender (the address the chat server
 * stamped, never a field of the signal) is the one party the API named for its call, and whose
 * `callId` is that call's.
 */
export const CALL_SIGNAL_NAMESPACE = 'urn:frontdesk:call-signal:0';

/** One side's peer connection, named at random: a reloaded page or a new connection has a new one. */
export const signalSessionSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8 to 64 letters, digits, - or _');

const signalBase = z.strictObject({
  callId: callIdSchema,
  /** The sender's peer connection. */
  session: signalSessionSchema,
  /** The receiver's peer connection this answers; `null` when the sender knows none yet. */
  to: signalSessionSchema.nullable(),
});

/**
 * The agent always offers (its console is the side that knows the call is answered); the guest
 * answers. `hello`: the guest's side is ready for an offer (again, after a reload). `restart`:
 * the guest asks for an offer with an ICE restart (its network changed). `bye`: the sender's
 * peer connection is gone; `ended` when it went because the call ended (a hang-up), not because
 * the sender left it (a transfer, a reload).
 */
export const callSignalSchema = z.discriminatedUnion('kind', [
  signalBase.extend({ kind: z.literal('hello') }),
  signalBase.extend({
    kind: z.literal('description'),
    description: z.strictObject({
      type: z.enum(['offer', 'answer']),
      sdp: z.string().min(1).max(100_000),
    }),
  }),
  signalBase.extend({
    kind: z.literal('candidate'),
    /** An RTCIceCandidateInit; an empty `candidate` ends the sender's gathering. */
    candidate: z.strictObject({
      candidate: z.string().max(2_000),
      sdpMid: z.string().max(64).nullable(),
      sdpMLineIndex: z.number().int().min(0).max(63).nullable(),
      usernameFragment: z.string().max(256).nullable(),
    }),
  }),
  signalBase.extend({ kind: z.literal('restart') }),
  signalBase.extend({ kind: z.literal('bye'), ended: z.boolean() }),
]);
export type CallSignal = z.infer<typeof callSignalSchema>;

/**
 * Where a p2p call's signals travel: the chat session implements it (@frontdesk/chat), the media
 * session uses it (@frontdesk/media), neither knowing the other.
 */
export interface SignalChannel {
  /** Sends a signal to a user by its jabber username; rejects when the chat is not connected. */
  sendSignal(to: string, signal: CallSignal): Promise<void>;
  /**
   * Every well-formed signal that arrives, with its sender's jabber username as the chat server
   * stamped it (never a field of the signal). Returns the unsubscribe.
   */
  onSignal(listener: (from: string, signal: CallSignal) => void): () => void;
}
