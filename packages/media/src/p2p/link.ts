import type { CallSignal, IceServer } from '@frontdesk/protocol';
import { newConnectionId } from './signals.ts';

/** A candidate as the `candidate` signal carries it. */
type CandidateInit = Extract<CallSignal, { kind: 'candidate' }>['candidate'];

export interface LinkEvents {
  /** A candidate we gathered; the empty one ends our gathering. */
  candidate(candidate: CandidateInit): void;
  track(track: MediaStreamTrack): void;
  /** A candidate of the peer's that our PeerConnection would not take. */
  refused(candidate: CandidateInit, error: unknown): void;
  state(state: RTCPeerConnectionState): void;
}

/**
 * One RTCPeerConnection with the peer, named by a random id: a new remote peer connection (the
 * peer reloaded its page) gets a new link on both sides. It carries our tracks, holds the
 * peer's candidates until their description is in, and reports its tracks and state.
 */
export class PeerLink {
  readonly id = newConnectionId();
  /** The peer's connection this one negotiated with; null until a description came from it. */
  remote: string | null = null;
  readonly pc: RTCPeerConnection;
  /** The peer's tracks as one stream (its feed). */
  readonly stream = new MediaStream();
  private readonly early: CandidateInit[] = [];

  constructor(
    iceServers: IceServer[],
    private readonly events: LinkEvents,
  ) {
    this.pc = new RTCPeerConnection({ iceServers });
    this.pc.addEventListener('icecandidate', ({ candidate }) => {
      events.candidate(
        candidate
          ? {
              candidate: candidate.candidate,
              sdpMid: candidate.sdpMid,
              sdpMLineIndex: candidate.sdpMLineIndex,
              usernameFragment: candidate.usernameFragment,
            }
          : { candidate: '', sdpMid: null, sdpMLineIndex: null, usernameFragment: null },
      );
    });
    this.pc.addEventListener('track', ({ track }) => {
      if (!this.stream.getTracks().includes(track)) this.stream.addTrack(track);
      events.track(track);
    });
    this.pc.addEventListener('connectionstatechange', () => events.state(this.pc.connectionState));
  }

  /** The offerer's side: a transceiver per local track, sending and receiving. */
  addTracks(local: MediaStream, direction: RTCRtpTransceiverDirection): void {
    for (const track of local.getTracks()) {
      this.pc.addTransceiver(track, { direction, streams: [local] });
    }
  }

  /** The answerer's side: our tracks go on the transceivers the offer made. */
  async attachTracks(local: MediaStream, direction: RTCRtpTransceiverDirection): Promise<void> {
    for (const transceiver of this.pc.getTransceivers()) {
      if (transceiver.sender.track) continue;
      const track = local.getTracks().find((t) => t.kind === transceiver.receiver.track.kind);
      if (!track) continue;
      await transceiver.sender.replaceTrack(track);
      transceiver.direction = direction;
    }
  }

  /** Hold (`inactive`) or not: applied at the next description. */
  setDirection(direction: RTCRtpTransceiverDirection): void {
    for (const transceiver of this.pc.getTransceivers()) {
      transceiver.direction = direction;
    }
  }

  /** The sender of our track of a kind (device switches replace its track). */
  sender(kind: 'audio' | 'video'): RTCRtpSender | undefined {
    return this.pc
      .getTransceivers()
      .find((t) => (t.sender.track?.kind ?? t.receiver.track.kind) === kind)?.sender;
  }

  /** Whether the sender of a kind sends at all (a mute the peer sees: no packets). */
  async setSending(kind: 'audio' | 'video', send: boolean): Promise<void> {
    const sender = this.sender(kind);
    if (!sender) return;
    const parameters = sender.getParameters();
    if (parameters.encodings.every((encoding) => encoding.active === send)) return;
    for (const encoding of parameters.encodings) encoding.active = send;
    await sender.setParameters(parameters);
  }

  async setRemote(description: RTCSessionDescriptionInit): Promise<void> {
    await this.pc.setRemoteDescription(description);
    for (const candidate of this.early.splice(0)) await this.addCandidate(candidate);
  }

  /**
   * The peer's candidate; kept until its description is in (they may overtake it). One the
   * PeerConnection refuses is no failure of the call: around an ICE restart a candidate of the
   * credentials just replaced still arrives, and the path is made of the ones that are taken.
   */
  async addCandidate(candidate: CandidateInit): Promise<void> {
    if (!this.pc.remoteDescription) {
      this.early.push(candidate);
      return;
    }
    await this.pc.addIceCandidate(candidate).catch((error: unknown) => {
      this.events.refused(candidate, error);
    });
  }

  sdp(): { local: string | null; remote: string | null } {
    return {
      local: this.pc.localDescription?.sdp ?? null,
      remote: this.pc.remoteDescription?.sdp ?? null,
    };
  }

  close(): void {
    this.pc.close();
  }
}
