import type { CallSignal, SignalChannel } from '@frontdesk/protocol';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A signal without what {@link PeerSignals} adds: the call, our PC id and theirs. */
export type SignalBody = DistributiveOmit<CallSignal, 'callId' | 'session' | 'to'>;

/** A random name for one of our peer connections (protocol: 8–64 of [A-Za-z0-9_-]). */
export function newConnectionId(): string {
  return crypto.randomUUID();
}

/**
 * The signals of one call with one peer. SECURITY: anyone in the chat domain can send us a
 * signal, so until the API named the peer nothing is sent or received; then only signals from
 * that peer (its address as the chat server stamped it), for this call, and addressed to our
 * current peer connection (or to none yet) reach the session. Everything else is dropped.
 */
export class PeerSignals {
  private peer: string | null = null;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly channel: SignalChannel,
    private readonly callId: string,
    /** Our current peer connection's id. */
    private readonly ownId: () => string,
    receive: (signal: CallSignal) => void,
    private readonly debug: (message: string, detail?: unknown) => void,
  ) {
    this.unsubscribe = channel.onSignal((from, signal) => {
      const reason = this.refusal(from, signal);
      if (reason) debug(`signal dropped (${reason})`, { from, kind: signal.kind });
      else receive(signal);
    });
  }

  get peerName(): string | null {
    return this.peer;
  }

  setPeer(peer: string): void {
    this.peer = peer;
  }

  private refusal(from: string, signal: CallSignal): string | null {
    if (this.peer === null) return 'no peer yet';
    if (from !== this.peer) return 'not from the peer';
    if (signal.callId !== this.callId) return 'another call';
    if (signal.to !== null && signal.to !== this.ownId()) return 'stale';
    return null;
  }

  /** Sends to the peer, best effort: a lost signal is made up by the next restart or hello. */
  async send(to: string | null, body: SignalBody): Promise<void> {
    if (this.peer === null) return;
    const signal = { ...body, callId: this.callId, session: this.ownId(), to } as CallSignal;
    await this.channel.sendSignal(this.peer, signal).catch((error: unknown) => {
      this.debug(`signal ${body.kind} not sent`, error);
    });
  }

  stop(): void {
    this.unsubscribe();
  }
}
