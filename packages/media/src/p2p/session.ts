import type { AdapterSession, CallQualityBody, CallSignal } from '@frontdesk/protocol';
import { fromApp, MediaError, toMediaError } from '../errors.ts';
import {
  cameraConstraints,
  microphoneConstraints,
  releaseLocal,
  replaceLocalTrack,
  type LocalMediaHost,
} from '../local-media.ts';
import type { QualitySampler } from '../quality-sampler.ts';
import { DEFAULT_RETRY_POLICY, withRetry } from '../retry.ts';
import { MediaStateOwner } from '../session-state.ts';
import { validateCapture, type CameraChoice, type VideoOptions } from '../tracks.ts';
import type { EndReason, MediaSessionEvents } from '../types.ts';
import { PeerFeed } from './feed.ts';
import { IceRecovery } from './ice.ts';
import { PeerLink } from './link.ts';
import { p2pSampler } from './quality.ts';
import { PeerSignals } from './signals.ts';
import type { P2pSessionOptions } from './types.ts';

type Description = Extract<CallSignal, { kind: 'description' }>;

/**
 * A participant's media in a p2p call: one RTCPeerConnection straight to the other party's
 * browser, negotiated over the chat ({@link P2pSessionOptions.signalling}). The same surface as
 * the Janus `MediaSession`, so that the apps hold either one.
 *
 * The agent's side offers, the guest's answers: the answerer says `hello` when it is ready,
 * the offerer offers to a peer connection it is not connected with. A peer connection that
 * comes back under a new id (a reloaded page) gets a fresh link on both sides. One session
 * has one peer: a call with another agent (a transfer) is a new leg and a new session. Its parts:
 * `PeerSignals` (who may signal us), `PeerLink` (one RTCPeerConnection), `PeerFeed` (the peer's
 * stream and feed), `IceRecovery` (ICE restarts) and the shared `QualitySampler`.
 */
export class P2pSession extends MediaStateOwner implements AdapterSession<MediaSessionEvents> {
  private readonly lifetime = new AbortController();
  protected readonly localMedia: LocalMediaHost;
  /**
   * The current peer connection; null before set-up, once the call ended, and from the peer's
   * `bye` until a peer connection of its says `hello` (to the offerer) or offers (to the answerer).
   */
  private link: PeerLink | null = null;
  private readonly signals: PeerSignals;
  private readonly feed: PeerFeed;
  private readonly ice: IceRecovery;
  private readonly sampler: QualitySampler;
  /** Signals and our own renegotiations, one at a time, in order. */
  private queue: Promise<void> = Promise.resolve();
  /** The offerer renegotiates (a hold) once its outstanding offer is answered. */
  private reoffer = false;

  constructor(private readonly options: P2pSessionOptions) {
    super();
    validateCapture(options);
    this.localMedia = {
      options,
      local: null,
      state: () => this.state,
      update: (patch) => this.update(patch),
      stage: (stage, ok, error) => this.stage(stage, ok, error),
      emit: (event, payload) => this.emitter.emit(event, payload),
    };
    this.signals = new PeerSignals(
      options.signalling,
      options.callId,
      () => this.link?.id ?? '',
      (signal) => this.enqueue(() => this.onSignal(signal)),
      (message, detail) => this.debug(message, detail),
    );
    this.feed = new PeerFeed({
      callType: options.callType,
      marks: this.marks,
      state: () => this.state,
      update: (patch) => this.update(patch),
      stage: (stage, ok) => this.stage(stage, ok),
      emit: (event, payload) => this.emitter.emit(event, payload),
      peer: () => this.signals.peerName,
    });
    this.ice = new IceRecovery({
      policy: options.reconnect ?? DEFAULT_RETRY_POLICY,
      signal: this.lifetime.signal,
      link: () => this.link,
      restart: () => this.restartIce(),
      down: (failed) => {
        if (failed) {
          this.marks.iceFailed = true;
          this.feed.clear();
        }
        if (this.state.status === 'connected') this.update({ status: 'reconnecting' });
      },
      up: (link) => {
        // After a failed ICE the feed was cleared: the same link's tracks come back.
        this.feed.restore(link);
        // Not a re-created session (`MediaState.reconnects`); the quality report counts it.
        if (this.state.status === 'reconnecting') this.update({ status: 'connected' });
      },
      gaveUp: (link, error) => {
        const sdp = link.sdp();
        this.emitter.emit('iceFailed', {
          direction: 'publish',
          localSdp: sdp.local,
          remoteSdp: sdp.remote,
        });
        this.end('failed', error);
      },
    });
    this.sampler = p2pSampler(
      options.qualityIntervalMs ?? 1000,
      this.marks,
      () => this.link,
      (quality) => this.update({ quality }),
      (stalled) => this.feed.setStalled(stalled),
    );
  }

  /** The peer's live stream (its feed id is `p2p`), for a `<video>`/`<audio>` element. */
  remoteStream(janusId: string): MediaStream | undefined {
    return janusId === this.state.feeds[0]?.janusId ? this.feed.stream() : undefined;
  }

  /**
   * The other party, by its jabber username, as the API named it. SECURITY: until then no
   * signal is sent or heeded. Named once: the same name again changes nothing, another throws
   * (a transfer's new agent is a new leg, whose media is a new session).
   */
  setPeer(jabberUsername: string): void {
    const previous = this.signals.peerName;
    if (previous === jabberUsername || this.state.status === 'closed') return;
    if (previous !== null) {
      throw new Error(`p2p session: the peer is ${previous}, it cannot become ${jabberUsername}`);
    }
    this.signals.setPeer(jabberUsername);
    this.enqueue(() => this.greet());
  }

  /** Makes the peer connection: `connect` resolves then, the peer's feed follows as events. */
  protected async join(): Promise<void> {
    const link = await this.newLink();
    if (this.lifetime.signal.aborted) {
      link.close();
      throw new MediaError('invalidHandle', 'media session ended during set-up');
    }
    this.link = link;
    this.marks.publishedAt = performance.now();
    this.update({ status: 'connected' });
    this.sampler.start();
    this.enqueue(() => this.greet());
  }

  /** The first word once both the peer and our media are there: an offer, or a hello. */
  private async greet(): Promise<void> {
    const link = this.link;
    if (!link || this.signals.peerName === null) return;
    if (this.options.role === 'offerer') await this.offer(link.remote);
    else await this.signals.send(null, { kind: 'hello' });
  }

  /** A peer connection with our tracks and fresh ICE servers (asked with spec §8's retries). */
  private async newLink(): Promise<PeerLink> {
    const link: PeerLink = new PeerLink(await this.iceServers(), {
      candidate: (candidate) => {
        if (link === this.link)
          void this.signals.send(link.remote, { kind: 'candidate', candidate });
      },
      track: (track) => {
        if (link === this.link) this.feed.addTrack(link, track);
      },
      // Normal around an ICE restart: a late candidate of the old credentials.
      refused: (candidate, error) => this.debug('candidate refused', { candidate, error }),
      state: (state) => {
        if (link === this.link) this.ice.onState(link, state);
      },
    });
    if (this.options.role === 'offerer' && this.localMedia.local) {
      link.addTracks(this.localMedia.local, this.direction());
    }
    return link;
  }

  /** A peer connection we have no link with (a new page, or one back after its `bye`). */
  private async replaceLink(): Promise<void> {
    this.dropLink();
    const link = await this.newLink();
    if (this.lifetime.signal.aborted) link.close();
    else this.link = link;
  }

  private dropLink(): void {
    const old = this.link;
    this.link = null;
    old?.close();
    this.feed.clear();
    this.reoffer = false;
  }

  private direction(): RTCRtpTransceiverDirection {
    return this.state.local.onHold ? 'inactive' : 'sendrecv';
  }

  private enqueue(task: () => Promise<void>): void {
    this.queue = this.queue.then(task).catch((raw: unknown) => this.fail(raw));
  }

  private onSignal(signal: CallSignal): Promise<void> {
    if (this.options.role === 'offerer') return this.onSignalAsOfferer(signal);
    return this.onSignalAsAnswerer(signal);
  }

  private async onSignalAsOfferer(signal: CallSignal): Promise<void> {
    if (signal.kind === 'hello') return this.onHello(signal.session);
    const link = this.link;
    if (!link) return;
    const fromPeer = link.remote === signal.session;
    switch (signal.kind) {
      case 'description':
        if (signal.description.type === 'answer') await this.onAnswer(link, signal);
        return;
      case 'candidate':
        if (fromPeer) await link.addCandidate(signal.candidate);
        return;
      case 'restart':
        if (fromPeer) await this.offer(link.remote, true);
        return;
      case 'bye':
        if (fromPeer) this.onBye(signal.ended);
        return;
    }
  }

  /**
   * A peer connection we are not connected with (a new page) is ready: offer to it, on a new
   * link if ours was with another or the last one said bye. Before our own set-up is done,
   * `join` offers to whoever is there.
   */
  private async onHello(session: string): Promise<void> {
    if (this.state.status !== 'connected' && this.state.status !== 'reconnecting') return;
    const link = this.link;
    if (link?.remote === session) return;
    if (!link || link.remote !== null) await this.replaceLink();
    await this.offer(session);
  }

  private async onSignalAsAnswerer(signal: CallSignal): Promise<void> {
    // Even without a link (the peer said bye): the peer's new connection offers.
    if (signal.kind === 'description') {
      if (signal.description.type === 'offer') await this.onOffer(signal);
      return;
    }
    const link = this.link;
    if (!link) return;
    const fromPeer = link.remote === signal.session;
    switch (signal.kind) {
      case 'candidate':
        if (fromPeer) await link.addCandidate(signal.candidate);
        return;
      case 'bye':
        if (fromPeer) this.onBye(signal.ended);
        return;
      case 'hello':
      case 'restart':
        this.debug(`${signal.kind} ignored: only the offerer heeds it`);
        return;
    }
  }

  /**
   * The offerer's offer (first, renegotiation, ICE restart). Sent to `to`; an offer still
   * waiting for its answer is sent again to a new peer connection rather than replaced (its
   * description holds the candidates gathered so far), and a renegotiation waits for its answer.
   */
  private async offer(to: string | null, iceRestart = false): Promise<void> {
    const link = this.link;
    if (!link) return;
    const pending = link.pc.signalingState === 'have-local-offer';
    if (pending && to === link.remote && !iceRestart) {
      this.reoffer = true;
      return;
    }
    // An ICE restart replaces an offer that went unanswered (the path to the peer is down).
    if (!pending || iceRestart) {
      try {
        if (iceRestart) link.pc.setConfiguration({ iceServers: await this.iceServers() });
        await link.pc.setLocalDescription(await link.pc.createOffer({ iceRestart }));
      } catch (raw) {
        const error = toMediaError(raw);
        this.stage('createOffer', false, error);
        throw error;
      }
      if (this.state.stages.createOffer !== true) this.stage('createOffer', true);
    }
    const sdp = link.pc.localDescription?.sdp;
    if (link !== this.link || !sdp) return;
    link.remote = to;
    // Sent before anything else is awaited, so that none of our candidates gathered for this
    // description reaches the peer ahead of it.
    const sent = this.signals.send(to, {
      kind: 'description',
      description: { type: 'offer', sdp },
    });
    // A sender's encodings exist once negotiated: a new link keeps the user's mutes.
    await this.applySending();
    await sent;
  }

  private async onAnswer(link: PeerLink, signal: Description): Promise<void> {
    // Only the answer to our outstanding offer: a late answer to one we made again is dropped.
    if (signal.to !== link.id || link.pc.signalingState !== 'have-local-offer') return;
    link.remote = signal.session;
    await link.setRemote(signal.description);
    if (!this.reoffer) return;
    this.reoffer = false;
    await this.offer(link.remote);
  }

  /**
   * The offer of the peer's connection: a new one (the agent reloaded, or came back after its
   * `bye`) gets a new link. Before our own set-up is done there is none to answer with: our
   * `hello` then asks for the offer again.
   */
  private async onOffer(signal: Description): Promise<void> {
    if (this.state.status !== 'connected' && this.state.status !== 'reconnecting') return;
    if (!this.link || (this.link.remote !== null && this.link.remote !== signal.session)) {
      await this.replaceLink();
    }
    const link = this.link;
    const local = this.localMedia.local;
    if (!link || !local) return;
    link.remote = signal.session;
    try {
      await link.setRemote(signal.description);
      await link.attachTracks(local, this.direction());
      await link.pc.setLocalDescription(await link.pc.createAnswer());
    } catch (raw) {
      const error = toMediaError(raw);
      this.stage('createAnswer', false, error);
      throw error;
    }
    if (this.state.stages.createAnswer !== true) this.stage('createAnswer', true);
    const sdp = link.pc.localDescription?.sdp;
    if (link !== this.link || !sdp) return;
    // Before anything else is awaited: our candidates must not overtake our answer.
    const sent = this.signals.send(signal.session, {
      kind: 'description',
      description: { type: 'answer', sdp },
    });
    await this.applySending();
    await sent;
  }

  /**
   * The peer's connection is gone. The call ended (its hang-up): so does ours, as when the
   * media server destroys a call's room. Otherwise (a transfer, the agent signing out, the
   * guest leaving) we drop the link and make the next one only when the peer's page is back:
   * the offerer on its `hello`, the answerer on its offer (a console that takes the call up
   * again offers at once). Until then neither asks for ICE servers, which the API refuses once
   * the call, or the leg a transfer replaced, is over; nor says `hello` to a console that left.
   */
  private onBye(ended: boolean): void {
    if (ended) this.end('roomDestroyed');
    else this.dropLink();
  }

  private iceServers() {
    return withRetry(() => fromApp(this.options.iceServers), {
      policy: this.options.retry ?? DEFAULT_RETRY_POLICY,
      signal: this.lifetime.signal,
    });
  }

  /**
   * Mutes or unmutes our microphone or camera: the track is disabled (silence or black at
   * once) and its sender stops sending, so the peer's feed reads muted (no packets), as when
   * Janus stops relaying a muted stream.
   */
  async setMuted(kind: 'audio' | 'video', muted: boolean): Promise<void> {
    const key = kind === 'audio' ? 'audioMuted' : 'videoMuted';
    this.update({ local: { ...this.state.local, [key]: muted } });
    await this.applySending();
  }

  /**
   * Hold: no media either way, the peer connection kept. Every transceiver goes `inactive` at
   * the next negotiation: the offerer offers at once; the answerer, which may not offer, asks
   * the offerer for an offer (`restart`, so an ICE restart rides along: the app holds only
   * from the agent's side) and answers it `inactive`.
   */
  async setOnHold(onHold: boolean): Promise<void> {
    this.update({ local: { ...this.state.local, onHold } });
    await this.applySending();
    const link = this.link;
    if (!link) return;
    link.setDirection(this.direction());
    if (this.options.role === 'offerer') await this.serially(() => this.offer(link.remote));
    else await this.askForOffer(link);
  }

  /** Mute and hold on our tracks and on what the link's senders send (no renegotiation). */
  private async applySending(): Promise<void> {
    const { audioMuted, videoMuted, onHold } = this.state.local;
    for (const track of this.localMedia.local?.getTracks() ?? []) {
      const muted = track.kind === 'audio' ? audioMuted : videoMuted;
      track.enabled = !onHold && !muted;
      await this.link?.setSending(track.kind === 'audio' ? 'audio' : 'video', !muted);
    }
  }

  /** Switches camera (or preset, or back camera) with replaceTrack: no renegotiation. */
  async switchCamera(choice: CameraChoice, preset?: VideoOptions['preset']): Promise<void> {
    await this.replaceLocal('video', cameraConstraints(this.localMedia, choice, preset));
  }

  /** Switches microphone with replaceTrack: no renegotiation. */
  async switchMicrophone(deviceId: string): Promise<void> {
    await this.replaceLocal('audio', microphoneConstraints(deviceId));
  }

  private async replaceLocal(
    kind: 'audio' | 'video',
    constraints: MediaStreamConstraints,
  ): Promise<void> {
    await replaceLocalTrack(this.localMedia, kind, constraints, async (_old, track) => {
      await this.link?.sender(kind)?.replaceTrack(track);
    });
  }

  /** Raw WebRTC statistics of the one peer connection, as both directions. */
  stats(): Promise<{ publish: RTCStatsReport | null; subscribe: RTCStatsReport | null }> {
    return this.sampler.stats();
  }

  /**
   * What this side measured of the call's media, for `PUT /api/calls/:callId/quality`. Ask
   * before `close()` for a last reading; after the end, the last sample counts.
   */
  qualityReport(): Promise<CallQualityBody> {
    return this.sampler.report();
  }

  /**
   * ICE restart (a network change): the offerer offers with fresh ICE credentials and servers,
   * the answerer asks it to.
   */
  async restartIce(): Promise<void> {
    const link = this.link;
    if (!link) return;
    if (this.options.role === 'offerer') await this.serially(() => this.offer(link.remote, true));
    else await this.askForOffer(link);
  }

  /**
   * The answerer's way to renegotiate: it asks the offerer for an offer with an ICE restart,
   * having taken fresh ICE servers first (TURN credentials expire), which its answer gathers on.
   */
  private async askForOffer(link: PeerLink): Promise<void> {
    const iceServers = await this.iceServers();
    if (link !== this.link) return;
    link.pc.setConfiguration({ iceServers });
    await this.signals.send(link.remote, { kind: 'restart' });
  }

  /** Runs a task in the signal queue and waits for it (its failure is the caller's). */
  private serially(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task);
    this.queue = run.catch((raw: unknown) => this.fail(raw));
    return run;
  }

  /**
   * Ends the call's media and releases everything; idempotent. Tells the peer (best effort),
   * `ended` when the call is over rather than this side leaving it.
   */
  async close(options: { ended?: boolean } = {}): Promise<void> {
    if (this.state.status === 'closed') return;
    // Without a link (the peer said bye, or we never set up) there is no connection to tell.
    const bye = this.link
      ? this.signals.send(this.link.remote, { kind: 'bye', ended: options.ended === true })
      : Promise.resolve();
    this.end('left');
    await bye;
  }

  private fail(raw: unknown): void {
    if (this.lifetime.signal.aborted) return;
    const error = toMediaError(raw);
    this.debug('failed', error);
    this.update({ error: { code: error.code, message: error.message } });
  }

  protected end(reason: EndReason, error?: MediaError): void {
    if (this.state.status === 'closed') return;
    this.lifetime.abort(new MediaError('invalidHandle', `media session ended: ${reason}`));
    this.sampler.stop();
    this.signals.stop();
    this.ice.stop();
    const link = this.link;
    this.link = null;
    link?.close();
    this.feed.clear();
    releaseLocal(this.localMedia);
    this.update({
      status: 'closed',
      endReason: reason,
      streamsReady: { local: false, remote: false },
      ...(error ? { error: { code: error.code, message: error.message } } : {}),
    });
  }

  private debug(message: string, detail?: unknown): void {
    if (this.options.debug) console.debug(`media p2p ${this.options.role}: ${message}`, detail);
  }
}

/** Creates the media session of one side of a p2p call; nothing happens until `connect`. */
export function createP2pSession(options: P2pSessionOptions): P2pSession {
  return new P2pSession(options);
}
