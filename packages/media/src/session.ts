import {
  JOIN_DELAY_MS,
  REMOTE_FEED_BASE_DELAY_MS,
  REMOTE_FEED_DELAY_PER_PUBLISHER_MS,
  SIMULCAST_BITRATES,
  type LinkQuality,
  type MediaCallType,
  type MediaSetupStage,
  type MediaSetupStages,
  type PeerCallState,
  type RemoteFeed,
  type RoomAccess,
  type StreamsReady,
} from '@frontdesk/protocol';
import { Emitter } from './emitter.ts';
import { MediaError, toMediaError, type MediaErrorCode } from './errors.ts';
import { chooseFeeds, parsePublishers, wantedStreams, type Publisher } from './feeds.ts';
import {
  browserSupport,
  Gateway,
  type Jsep,
  type PluginData,
  type TrackOption,
  type VideoroomHandle,
} from './janus.ts';
import { countersFrom, linkQuality, type LinkCounters } from './quality.ts';
import { DEFAULT_RETRY_POLICY, sleep, withRetry, type RetryPolicy } from './retry.ts';
import {
  captureConstraints,
  validateCapture,
  videoConstraints,
  type AudioOptions,
  type CameraChoice,
  type VideoOptions,
} from './tracks.ts';

export interface MediaSessionOptions {
  /** Janus URL(s): `ws(s)://…` or `http(s)://…/janus` (spec §5: required). */
  readonly server: string | string[];
  /** A fresh Janus token from the API; called again whenever the session is re-created. */
  readonly token: () => Promise<string>;
  /**
   * spec §4 stage `createRoom`: asks the API for the call's room (creating it if needed): its
   * pin and this participant's room token (decision 0008). Called again after the Janus session
   * is lost, as a restarted Janus has no rooms.
   */
  readonly room: () => Promise<RoomAccess>;
  /** spec §7: display = the participant's username. */
  readonly display: string;
  readonly callType: MediaCallType;
  readonly video?: VideoOptions;
  readonly audio?: AudioOptions;
  readonly iceServers?: RTCIceServer[];
  /** Retries of each set-up step (spec §8: up to 20). */
  readonly retry?: RetryPolicy;
  /** Attempts to re-create a lost session before the call ends. */
  readonly reconnect?: RetryPolicy;
  /** spec §9 delays, overridable for tests and benchmarks. */
  readonly joinDelayMs?: number;
  readonly feedDelayMs?: { readonly base: number; readonly perPublisher: number };
  /**
   * How often quality is sampled (default 1000 ms); the same samples tell a peer's muted
   * stream (no packets) from a live one. 0 turns both off.
   */
  readonly qualityIntervalMs?: number;
  readonly debug?: boolean;
}

export type MediaStatus = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'ended';
/** Why a call ended: we left, the room was destroyed (spec §4), we were kicked, or it failed. */
export type EndReason = 'left' | 'roomDestroyed' | 'kicked' | 'failed';

/**
 * Everything the UI shows about the media, as plain data (safe to put in a store). Each change
 * is a new object (never mutated), so a store may freeze it; no `readonly` so that Immer drafts
 * accept it.
 */
export interface MediaState {
  status: MediaStatus;
  endReason: EndReason | null;
  error: { code: MediaErrorCode; message: string } | null;
  stages: MediaSetupStages;
  feeds: RemoteFeed[];
  local: {
    audioMuted: boolean;
    videoMuted: boolean;
    onHold: boolean;
  };
  streamsReady: StreamsReady;
  /** spec §4: first remote media ⇒ Resumed; Paused once the peer left or unpublished. */
  peerCall: PeerCallState;
  peerVideo: PeerCallState;
  quality: { send: LinkQuality | null; receive: LinkQuality | null };
  /** How many times the session was re-created after it was lost. */
  reconnects: number;
}

export interface MediaSessionEvents extends Record<string, unknown> {
  state: MediaState;
  stage: { stage: MediaSetupStage; ok: boolean; error: MediaError | null };
  /** The local camera/microphone stream (null once stopped). */
  localStream: MediaStream | null;
  /** A remote participant's stream; null when it went away. */
  remoteStream: { janusId: string; display: string; stream: MediaStream | null };
  /** spec §8: ICE failed; the app sends a call-report update with these SDPs. */
  iceFailed: {
    direction: MediaDirection;
    localSdp: string | null;
    remoteSdp: string | null;
  };
}

/** One connection to Janus: re-created as a whole when the session is lost. */
interface Generation {
  readonly gateway: Gateway;
  readonly publisher: VideoroomHandle;
  readonly access: RoomAccess;
  readonly privateId: number;
  subscriber: Promise<VideoroomHandle> | null;
  /** Feed id → mids we asked Janus for. */
  readonly subscribed: Map<string, Set<string>>;
  /** Subscriber mid → feed id, from Janus's `streams` lists. */
  readonly midToFeed: Map<string, string>;
  readonly publishers: Map<string, Publisher>;
  /** Serialises subscriber renegotiations (offers arrive one at a time). */
  subscriberQueue: Promise<void>;
  feedTimer: ReturnType<typeof setTimeout> | undefined;
  /** Pending ICE restarts of PeerConnections that went `disconnected`. */
  readonly iceTimers: Partial<Record<MediaDirection, ReturnType<typeof setTimeout>>>;
  /** PeerConnections whose ICE is `disconnected` or `failed` right now. */
  readonly iceDown: Partial<Record<MediaDirection, boolean>>;
}

const INITIAL_STATE: MediaState = {
  status: 'idle',
  endReason: null,
  error: null,
  stages: {},
  feeds: [],
  local: { audioMuted: false, videoMuted: false, onHold: false },
  streamsReady: { local: false, remote: false },
  peerCall: 'Paused',
  peerVideo: 'Paused',
  quality: { send: null, receive: null },
  reconnects: 0,
};

/** Our two PeerConnections: the one we publish on and the one we receive on. */
export type MediaDirection = 'publish' | 'subscribe';
/** How long a PeerConnection may stay `disconnected` (a network change) before an ICE restart. */
const ICE_DISCONNECTED_GRACE_MS = 3000;

/** Set-up records stages and retries each step; recovery retries the whole generation. */
type StepMode = 'setup' | 'recover';

function stopTimers(generation: Generation): void {
  clearTimeout(generation.feedTimer);
  for (const timer of Object.values(generation.iceTimers)) clearTimeout(timer);
}

const isVideoroom = (data: PluginData, kind: string) => data.videoroom === kind;

/**
 * A participant's media in one call over the Janus videoroom: publishes the local camera and
 * microphone, subscribes to the other publishers, and recovers from lost sessions and ICE
 * failures. Live objects (handles, streams) stay inside; {@link MediaSession.state} is plain.
 */
export class MediaSession {
  private readonly emitter = new Emitter<MediaSessionEvents>();
  private current: MediaState = INITIAL_STATE;
  private generation: Generation | null = null;
  private local: MediaStream | null = null;
  private readonly remote = new Map<string, MediaStream>();
  /** Remote track → its subscriber mid; tracks listed here have our mute listeners. */
  private readonly trackMids = new WeakMap<MediaStreamTrack, string>();
  /** Subscriber mids whose packet count stood still over the last sample, and the counts. */
  private stalledMids = new Set<string>();
  private packetsByMid = new Map<string, number>();
  private connecting: Promise<void> | null = null;
  private recovering = false;
  private readonly lifetime = new AbortController();
  private qualityTimer: ReturnType<typeof setInterval> | undefined;
  private lastCounters: { send: LinkCounters | null; receive: LinkCounters | null } = {
    send: null,
    receive: null,
  };

  constructor(private readonly options: MediaSessionOptions) {
    // spec §5: a server URL is required; bitrate and framerate must be non-negative.
    if (options.server.length === 0) throw new MediaError('invalidServerUrl', 'Invalid server url');
    validateCapture(options);
  }

  get state(): MediaState {
    return this.current;
  }

  get status(): MediaStatus {
    return this.current.status;
  }

  get localStream(): MediaStream | null {
    return this.local;
  }

  /** The live stream of a remote feed, for a `<video>`/`<audio>` element. */
  remoteStream(janusId: string): MediaStream | undefined {
    return this.remote.get(janusId);
  }

  on<K extends keyof MediaSessionEvents>(
    event: K,
    listener: (payload: MediaSessionEvents[K]) => void,
  ): () => void {
    return this.emitter.on(event, listener);
  }

  /**
   * Captures local media, enters the room and publishes. Resolves once published; remote
   * feeds follow as events. Calling it again returns the same attempt (spec §9: joining is
   * throttled to the leading call). Rejects, with status `ended`, if set-up fails.
   */
  connect(): Promise<void> {
    this.connecting ??= this.setup().catch((raw: unknown) => {
      const error = toMediaError(raw);
      this.end('failed', error);
      throw error;
    });
    return this.connecting;
  }

  private async setup(): Promise<void> {
    this.update({ status: 'connecting' });
    if (!browserSupport().webrtc) {
      throw new MediaError('webrtcUnsupported', 'WebRTC not supported by this browser');
    }
    await this.captureLocal();
    this.adopt(await this.startGeneration('setup'));
    this.update({ status: 'connected' });
    this.startQualitySampling();
  }

  /** spec §5: a camera call needs audio and video; any capture failure is `disabledCamera`. */
  private async captureLocal(): Promise<void> {
    try {
      this.local = await navigator.mediaDevices.getUserMedia(captureConstraints(this.options));
    } catch (raw) {
      const error =
        raw instanceof MediaError
          ? raw
          : new MediaError('disabledCamera', toMediaError(raw).message);
      this.stage('localStream', false, error);
      throw error;
    }
    this.stage('localStream', true);
    this.update({ streamsReady: { ...this.current.streamsReady, local: true } });
    this.emitter.emit('localStream', this.local);
  }

  private get retryPolicy(): RetryPolicy {
    return this.options.retry ?? DEFAULT_RETRY_POLICY;
  }

  /**
   * Runs a step with spec §8's retries, recording its stage. While recovering, the recovery
   * loop does the retrying and stages keep their set-up result (no call-bug report for a
   * retried recovery attempt).
   */
  private async step<T>(
    stage: MediaSetupStage | null,
    run: () => Promise<T>,
    mode: StepMode = 'setup',
  ): Promise<T> {
    const policy = mode === 'setup' ? this.retryPolicy : { ...this.retryPolicy, retries: 0 };
    try {
      const result = await withRetry(run, { policy, signal: this.lifetime.signal });
      if (stage && mode === 'setup') this.stage(stage, true);
      return result;
    } catch (raw) {
      const error = toMediaError(raw);
      if (stage && mode === 'setup') this.stage(stage, false, error);
      throw error;
    }
  }

  /** Session → publisher handle → join → publish: everything that a lost session takes away. */
  private async startGeneration(mode: StepMode): Promise<Generation> {
    // spec §9's join delay counts from here: the room, the gateway and the handle are made
    // ready while it runs, so only the join itself waits for it.
    const joinAt = performance.now() + (this.options.joinDelayMs ?? JOIN_DELAY_MS);
    const access = await this.step('createRoom', () => this.fromApp(this.options.room), mode);
    let gateway = await this.step(null, () => this.openGateway(), mode);
    try {
      return await this.enterRoom(gateway, access, mode, joinAt, (next) => (gateway = next));
    } catch (error) {
      await gateway.destroy();
      throw error;
    }
  }

  private async enterRoom(
    first: Gateway,
    access: RoomAccess,
    mode: StepMode,
    joinAt: number,
    replaced: (gateway: Gateway) => void,
  ): Promise<Generation> {
    let gateway = first;
    // spec §8: attach failure marks the session not connected and re-initialises it.
    const publisher = await withRetry(() => gateway.attach(), {
      policy: mode === 'setup' ? this.retryPolicy : { ...this.retryPolicy, retries: 0 },
      signal: this.lifetime.signal,
      beforeRetry: async () => {
        await gateway.destroy();
        gateway = await this.openGateway();
        replaced(gateway);
      },
    });
    // spec §9: join delay.
    await sleep(Math.max(0, joinAt - performance.now()), this.lifetime.signal);
    const joined = await this.step(
      'joinRoom',
      async () => {
        const { data } = await publisher.requestAsync(
          {
            request: 'join',
            ptype: 'publisher',
            room: access.room,
            // spec §5: the room join password is sent lowercased.
            pin: access.pin.toLowerCase(),
            // SECURITY: the room admits only the tokens the API listed, one per participant.
            token: access.token,
            display: this.options.display,
          },
          (reply) => isVideoroom(reply, 'joined'),
        );
        return data;
      },
      mode,
    );
    const generation: Generation = {
      gateway,
      publisher,
      access,
      privateId: Number(joined.private_id),
      subscriber: null,
      subscribed: new Map(),
      midToFeed: new Map(),
      publishers: new Map(),
      subscriberQueue: Promise.resolve(),
      feedTimer: undefined,
      iceTimers: {},
      iceDown: {},
    };
    gateway.events.on('lost', (error) => void this.recover(generation, error));
    publisher.events.on('message', ({ data }) => this.onPublisherEvent(generation, data));
    publisher.events.on('ice', (state) => this.onIceState(generation, 'publish', state));
    // Janus hung up our publisher (its ICE or DTLS gave up): only a fresh start brings it back.
    publisher.events.on('webrtc', (up) => {
      if (!up)
        void this.recover(generation, new MediaError('webrtc', 'Janus hung up the publisher'));
    });
    await this.publish(generation, mode);
    this.addPublishers(generation, joined.publishers);
    return generation;
  }

  /** Makes a new generation current, unless the call ended while it was being set up. */
  private adopt(generation: Generation): void {
    if (this.lifetime.signal.aborted) {
      this.teardown(generation);
      throw new MediaError('invalidHandle', 'media session ended during set-up');
    }
    this.generation = generation;
  }

  private async openGateway(): Promise<Gateway> {
    return Gateway.open({
      server: this.options.server,
      token: await this.fromApp(this.options.token),
      ...(this.options.iceServers ? { iceServers: this.options.iceServers } : {}),
      debug: this.options.debug === true,
    });
  }

  /** The app's API calls (room, token): their failures are `apiCallFailed` and retried. */
  private async fromApp<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (raw) {
      if (raw instanceof MediaError) throw raw;
      throw new MediaError('apiCallFailed', raw instanceof Error ? raw.message : String(raw));
    }
  }

  private publishTracks(): TrackOption[] {
    const video = this.options.video;
    // dontStop: the tracks are ours and outlive a handle (re-publishing after recovery).
    return (this.local?.getTracks() ?? []).map((track) => ({
      type: track.kind === 'video' ? 'video' : 'audio',
      capture: track,
      recv: false,
      dontStop: true,
      ...(track.kind === 'video' && video?.simulcast
        ? { simulcast: true, simulcastMaxBitrates: { ...SIMULCAST_BITRATES } }
        : {}),
      ...(track.kind === 'video' && video?.bitrate !== undefined ? { bitrate: video.bitrate } : {}),
      ...(track.kind === 'video' && video?.framerate !== undefined
        ? { framerate: video.framerate }
        : {}),
    }));
  }

  /**
   * spec §7: configure with audio and video, then apply Janus's answer. An ICE restart
   * re-offers the same tracks with fresh ICE credentials.
   */
  private async publish(generation: Generation, mode: StepMode | 'iceRestart'): Promise<void> {
    const { publisher } = generation;
    const iceRestart = mode === 'iceRestart';
    const offer = await this.step(
      'createOffer',
      () => publisher.createOffer(iceRestart ? [] : this.publishTracks(), iceRestart),
      iceRestart ? 'recover' : mode,
    );
    // Recording is the server's alone (decision 0008): Janus records the room when the company
    // records calls and names the files itself, so configure never carries a file name.
    const body: PluginData = iceRestart
      ? { request: 'configure' }
      : { request: 'configure', audio: true, video: this.options.callType === 'video' };
    const { jsep } = await publisher.requestAsync(body, (data) => data.configured === 'ok', offer);
    if (!jsep) throw new MediaError('invalidJsep', 'Invalid JSEP');
    await publisher.handleRemoteJsep(jsep);
    // A re-publish (recovery) must keep the user's mute and hold choices.
    if (
      this.current.local.audioMuted ||
      this.current.local.videoMuted ||
      this.current.local.onHold
    ) {
      await this.applySending(generation);
    }
  }

  private onPublisherEvent(generation: Generation, data: PluginData): void {
    if (isVideoroom(data, 'destroyed')) {
      // spec §4: a room-destroyed event ends the session.
      this.end('roomDestroyed');
      return;
    }
    if (!isVideoroom(data, 'event')) return;
    if (data.leaving === 'ok' && data.reason === 'kicked') {
      this.end('kicked');
      return;
    }
    if (data.publishers !== undefined) this.addPublishers(generation, data.publishers);
    // spec §4: a publisher leaving or unpublishing removes its stream.
    const gone = data.leaving ?? data.unpublished;
    if (typeof gone === 'string' && gone !== 'ok' && generation.publishers.delete(gone)) {
      this.scheduleFeedSync(generation, 0);
    }
  }

  private addPublishers(generation: Generation, raw: unknown): void {
    const added = parsePublishers(raw);
    if (added.length === 0) return;
    for (const publisher of added) generation.publishers.set(publisher.id, publisher);
    // spec §9: remote feed set-up waits 200 ms plus 200 ms per publisher.
    const delay = this.options.feedDelayMs ?? {
      base: REMOTE_FEED_BASE_DELAY_MS,
      perPublisher: REMOTE_FEED_DELAY_PER_PUBLISHER_MS,
    };
    this.scheduleFeedSync(generation, delay.base + delay.perPublisher * generation.publishers.size);
  }

  private scheduleFeedSync(generation: Generation, delayMs: number): void {
    clearTimeout(generation.feedTimer);
    generation.feedTimer = setTimeout(() => {
      generation.subscriberQueue = generation.subscriberQueue
        .then(() => this.syncFeeds(generation))
        .catch((error: unknown) => this.fail(error));
    }, delayMs);
  }

  /** Subscribes to the feeds we want and drops the ones that left (spec §5 rules in feeds.ts). */
  private async syncFeeds(generation: Generation): Promise<void> {
    if (generation !== this.generation) return;
    const support = browserSupport();
    const live = new Set(
      [...this.remote].filter(([, s]) => s.getTracks().length > 0).map(([id]) => id),
    );
    const wanted = new Map(
      chooseFeeds(generation.publishers.values(), this.options.display, live).map((publisher) => [
        publisher.id,
        publisher,
      ]),
    );
    for (const feed of [...generation.subscribed.keys()]) {
      if (wanted.has(feed)) continue;
      generation.subscribed.delete(feed);
      this.dropRemote(feed);
      // A feed that left the room is already gone from the subscription; one we replaced is not.
      if (generation.publishers.has(feed) && generation.subscriber) {
        const handle = await generation.subscriber;
        await handle.requestAsync(
          { request: 'unsubscribe', streams: [{ feed }] },
          (data) => isVideoroom(data, 'updated') || isVideoroom(data, 'event'),
        );
      }
    }
    const streams = [...wanted.values()]
      .filter((publisher) => !generation.subscribed.has(publisher.id))
      .flatMap((publisher) => {
        const mids = wantedStreams(publisher, support).map((stream) => stream.mid);
        if (mids.length > 0) generation.subscribed.set(publisher.id, new Set(mids));
        return mids.map((mid) => ({ feed: publisher.id, mid }));
      });
    this.publishFeedList(generation);
    if (streams.length === 0) return;
    if (generation.subscriber) {
      const handle = await generation.subscriber;
      await this.step(null, () =>
        handle.requestAsync({ request: 'subscribe', streams }, (data) =>
          isVideoroom(data, 'updated'),
        ),
      );
      return;
    }
    generation.subscriber = this.startSubscriber(generation, streams);
    await generation.subscriber;
  }

  /** spec §7: join as subscriber with the streams (feed, mid) and our publisher's private_id. */
  private async startSubscriber(
    generation: Generation,
    streams: { feed: string; mid: string }[],
  ): Promise<VideoroomHandle> {
    const handle = await this.step(null, () => generation.gateway.attach());
    handle.events.on('remoteTrack', (event) => this.onRemoteTrack(generation, event));
    handle.events.on('ice', (state) => this.onIceState(generation, 'subscribe', state));
    handle.events.on('message', ({ data, jsep }) => {
      this.mapStreams(generation, data.streams);
      if (jsep?.type === 'offer') {
        generation.subscriberQueue = generation.subscriberQueue
          .then(() => this.answer(handle, jsep))
          .catch((error: unknown) => this.fail(error));
      }
    });
    await this.step(null, () =>
      handle.requestAsync(
        {
          request: 'join',
          ptype: 'subscriber',
          room: generation.access.room,
          pin: generation.access.pin.toLowerCase(),
          private_id: generation.privateId,
          streams,
        },
        (data) => isVideoroom(data, 'attached'),
      ),
    );
    return handle;
  }

  /** Answers a subscriber offer (first, renegotiation or ICE restart) and starts the media. */
  private async answer(handle: VideoroomHandle, offer: Jsep): Promise<void> {
    // Receive only: the answer adds no tracks of ours.
    const answer = await this.step('createAnswer', () => handle.createAnswer(offer, []));
    await handle.requestAsync({ request: 'start' }, (data) => data.started === 'ok', answer);
  }

  private mapStreams(generation: Generation, raw: unknown): void {
    if (!Array.isArray(raw)) return;
    for (const stream of raw as PluginData[]) {
      if (typeof stream.mid === 'string' && typeof stream.feed_id === 'string') {
        generation.midToFeed.set(stream.mid, stream.feed_id);
      }
    }
  }

  private onRemoteTrack(
    generation: Generation,
    event: { track: MediaStreamTrack; mid: string; on: boolean },
  ): void {
    const feed = generation.midToFeed.get(event.mid);
    if (!feed || generation !== this.generation) return;
    let stream = this.remote.get(feed);
    if (event.on) {
      if (!stream) {
        stream = new MediaStream();
        this.remote.set(feed, stream);
      }
      if (!stream.getTracks().includes(event.track)) stream.addTrack(event.track);
      if (!this.trackMids.has(event.track)) {
        // Mute state for the UI as soon as the browser sees it, before janus.js removes the
        // track (its own `onmute` handler, which we leave alone).
        this.trackMids.set(event.track, event.mid);
        event.track.addEventListener('mute', () => this.publishFeedList(generation));
        event.track.addEventListener('unmute', () => this.publishFeedList(generation));
      }
      if (this.current.stages.remoteStream !== true) this.stage('remoteStream', true);
    } else if (stream) {
      // spec §9: janus.js reports a track gone after REMOTE_TRACK_MUTED_REMOVAL_MS muted, or ended.
      stream.removeTrack(event.track);
    }
    this.publishFeedList(generation);
    const publisher = generation.publishers.get(feed);
    this.emitter.emit('remoteStream', {
      janusId: feed,
      display: publisher?.display ?? feed,
      stream: stream && stream.getTracks().length > 0 ? stream : null,
    });
  }

  private dropRemote(feed: string): void {
    const stream = this.remote.get(feed);
    if (!stream) return;
    this.remote.delete(feed);
    const display = this.current.feeds.find((f) => f.janusId === feed)?.display ?? feed;
    this.emitter.emit('remoteStream', { janusId: feed, display, stream: null });
  }

  /** Recomputes the plain feed list and the call status of spec §3 from the live tracks. */
  private publishFeedList(generation: Generation): void {
    if (generation !== this.generation) return;
    const feeds: RemoteFeed[] = [...generation.subscribed.keys()].flatMap((id) => {
      const publisher = generation.publishers.get(id);
      if (!publisher) return [];
      const tracks = this.remote.get(id)?.getTracks() ?? [];
      // Chrome does not mute a remote audio track whose packets stopped, so a stream counts
      // as muted when either the browser or our packet counters say so.
      const flowing = (kind: string) =>
        tracks.some(
          (t) => t.kind === kind && !t.muted && !this.stalledMids.has(this.trackMids.get(t) ?? ''),
        );
      return [
        {
          janusId: id,
          display: publisher.display,
          onlyAudio: !publisher.streams.some((s) => s.type === 'video' && !s.disabled),
          audioMuted: !flowing('audio'),
          videoMuted: !flowing('video'),
        },
      ];
    });
    const remoteMedia = feeds.some((f) => !f.audioMuted || !f.videoMuted);
    // spec §4: Resumed from the first remote media while the peer stays in the room (a
    // muted peer is still in the call); Paused when it left or unpublished.
    const resumed = feeds.length > 0 && (remoteMedia || this.current.peerCall === 'Resumed');
    this.update({
      feeds,
      streamsReady: { ...this.current.streamsReady, remote: remoteMedia },
      peerCall: resumed ? 'Resumed' : 'Paused',
      peerVideo: feeds.some((f) => !f.videoMuted) ? 'Resumed' : 'Paused',
    });
  }

  /** Mutes or unmutes our microphone or camera; the peer's track goes muted (no packets). */
  async setMuted(kind: 'audio' | 'video', muted: boolean): Promise<void> {
    const key = kind === 'audio' ? 'audioMuted' : 'videoMuted';
    this.update({ local: { ...this.current.local, [key]: muted } });
    if (this.generation) await this.applySending(this.generation);
  }

  /** Hold: stop sending and receiving without leaving the room; resume undoes it. */
  async setOnHold(onHold: boolean): Promise<void> {
    this.update({ local: { ...this.current.local, onHold } });
    const generation = this.generation;
    if (!generation) return;
    await this.applySending(generation);
    if (generation.subscriber) {
      const handle = await generation.subscriber;
      await handle.requestAsync({ request: onHold ? 'pause' : 'start' }, (data) =>
        onHold ? data.paused === 'ok' : data.started === 'ok',
      );
    }
  }

  /**
   * Applies mute and hold: the track is disabled (silence/black at once, no renegotiation)
   * and Janus stops relaying the stream, so the peer's track goes muted.
   */
  private async applySending(generation: Generation): Promise<void> {
    const { audioMuted, videoMuted, onHold } = this.current.local;
    const streams: { mid: string; send: boolean }[] = [];
    for (const transceiver of generation.publisher.pc?.getTransceivers() ?? []) {
      const track = transceiver.sender.track;
      if (!track || !transceiver.mid) continue;
      const send = !onHold && !(track.kind === 'audio' ? audioMuted : videoMuted);
      track.enabled = send;
      streams.push({ mid: transceiver.mid, send });
    }
    await generation.publisher.requestAsync(
      { request: 'configure', streams },
      (data) => data.configured === 'ok',
    );
  }

  /** Switches camera (or preset, or back camera) with replaceTrack: no renegotiation. */
  async switchCamera(choice: CameraChoice, preset?: VideoOptions['preset']): Promise<void> {
    const constraints = videoConstraints({
      ...this.options.video,
      camera: choice,
      ...(preset ? { preset } : {}),
    });
    await this.replaceLocal('video', { video: constraints });
  }

  /** Switches microphone with replaceTrack: no renegotiation. */
  async switchMicrophone(deviceId: string): Promise<void> {
    await this.replaceLocal('audio', { audio: { deviceId: { exact: deviceId } } });
  }

  private async replaceLocal(
    kind: 'audio' | 'video',
    constraints: MediaStreamConstraints,
  ): Promise<void> {
    const local = this.local;
    if (!local) throw new MediaError('invalidArgument', 'no local media to switch');
    let track: MediaStreamTrack | undefined;
    try {
      track = (await navigator.mediaDevices.getUserMedia(constraints)).getTracks()[0];
    } catch (raw) {
      throw new MediaError('disabledCamera', toMediaError(raw).message);
    }
    if (!track) throw new MediaError('disabledCamera', `no ${kind} track`);
    const old = local.getTracks().find((t) => t.kind === kind);
    const muted = kind === 'audio' ? this.current.local.audioMuted : this.current.local.videoMuted;
    track.enabled = !muted && !this.current.local.onHold;
    const mid = this.generation?.publisher.pc
      ?.getTransceivers()
      .find((t) => t.sender.track === old || t.receiver.track.kind === kind)?.mid;
    if (this.generation && mid) {
      await this.generation.publisher.replaceTracks([
        { type: kind, mid, capture: track, replace: true, dontStop: true },
      ]);
    }
    if (old) {
      local.removeTrack(old);
      old.stop();
    }
    local.addTrack(track);
    this.emitter.emit('localStream', local);
  }

  /** Raw WebRTC statistics of both PeerConnections (diagnostics and tests). */
  async stats(): Promise<{ publish: RTCStatsReport | null; subscribe: RTCStatsReport | null }> {
    const generation = this.generation;
    const subscriber = generation?.subscriber ? await generation.subscriber : null;
    return {
      publish: (await generation?.publisher.pc?.getStats()) ?? null,
      subscribe: (await subscriber?.pc?.getStats()) ?? null,
    };
  }

  private startQualitySampling(): void {
    const interval = this.options.qualityIntervalMs ?? 1000;
    if (interval <= 0 || this.qualityTimer) return;
    this.qualityTimer = setInterval(() => {
      void this.sampleQuality().catch(() => undefined);
    }, interval);
  }

  private async sampleQuality(): Promise<void> {
    const now = performance.now();
    const { publish, subscribe } = await this.stats();
    const next = {
      send: publish ? countersFrom(publish, 'send', now) : null,
      receive: subscribe ? countersFrom(subscribe, 'receive', now) : null,
    };
    const before = this.lastCounters;
    this.lastCounters = next;
    this.update({
      quality: {
        send: before.send && next.send ? linkQuality(before.send, next.send) : null,
        receive: before.receive && next.receive ? linkQuality(before.receive, next.receive) : null,
      },
    });
    if (subscribe) this.detectStalledStreams(subscribe);
  }

  /** A remote stream whose packet count stands still between samples is muted for the UI. */
  private detectStalledStreams(report: RTCStatsReport): void {
    const packets = new Map<string, number>();
    report.forEach((stat: Record<string, unknown>) => {
      if (stat.type === 'inbound-rtp' && typeof stat.mid === 'string') {
        packets.set(stat.mid, Number(stat.packetsReceived ?? 0));
      }
    });
    const stalled = new Set(
      [...packets]
        .filter(([mid, count]) => this.packetsByMid.get(mid) === count)
        .map(([mid]) => mid),
    );
    this.packetsByMid = packets;
    const changed =
      stalled.size !== this.stalledMids.size ||
      [...stalled].some((mid) => !this.stalledMids.has(mid));
    this.stalledMids = stalled;
    if (changed && this.generation) this.publishFeedList(this.generation);
  }

  /**
   * ICE `failed`: report it and restart ICE. `disconnected` often heals by itself (a lost
   * packet burst); if it lasts, the network changed under us and an ICE restart finds the
   * new path.
   */
  private onIceState(
    generation: Generation,
    direction: MediaDirection,
    state: RTCIceConnectionState,
  ): void {
    clearTimeout(generation.iceTimers[direction]);
    generation.iceDown[direction] = state === 'disconnected' || state === 'failed';
    this.showIceHealth(generation);
    if (state === 'failed') void this.iceFailed(generation, direction);
    if (state === 'disconnected') {
      generation.iceTimers[direction] = setTimeout(() => {
        if (generation !== this.generation) return;
        void this.restartIce(direction).catch((error: unknown) => this.fail(error));
      }, ICE_DISCONNECTED_GRACE_MS);
    }
  }

  /**
   * While a PeerConnection has lost its path the call is `reconnecting` (the picture is
   * frozen, the UI must say so); `connected` again once ICE is back on every path.
   */
  private showIceHealth(generation: Generation): void {
    if (generation !== this.generation || this.recovering) return;
    const down = generation.iceDown.publish === true || generation.iceDown.subscribe === true;
    if (down && this.current.status === 'connected') this.update({ status: 'reconnecting' });
    if (!down && this.current.status === 'reconnecting') this.update({ status: 'connected' });
  }

  /** spec §8: report the failed ICE with the SDPs, then try an ICE restart. */
  private async iceFailed(generation: Generation, direction: MediaDirection): Promise<void> {
    if (generation !== this.generation) return;
    const handle = direction === 'publish' ? generation.publisher : await generation.subscriber;
    const sdp = handle?.sdp() ?? { local: null, remote: null };
    this.emitter.emit('iceFailed', { direction, localSdp: sdp.local, remoteSdp: sdp.remote });
    await this.restartIce(direction).catch((error: unknown) => this.fail(error));
  }

  /**
   * ICE restart: the publisher makes a new offer with fresh credentials; a subscriber asks
   * Janus for one (`configure` with `restart`), which the offer handler answers.
   */
  async restartIce(direction: MediaDirection | 'both' = 'both'): Promise<void> {
    const generation = this.generation;
    if (!generation) return;
    if (direction !== 'subscribe') await this.publish(generation, 'iceRestart');
    if (direction !== 'publish' && generation.subscriber) {
      const handle = await generation.subscriber;
      await handle.requestAsync(
        { request: 'configure', restart: true },
        (data) => isVideoroom(data, 'updated') || isVideoroom(data, 'event'),
      );
    }
  }

  /**
   * The Janus session was lost (server restarted, network gone): show `reconnecting`, drop
   * the remote streams so no frozen frame stays on screen, then re-create the session and
   * re-publish into the same room; end the call if that keeps failing.
   */
  private async recover(generation: Generation, error: MediaError): Promise<void> {
    if (generation !== this.generation || this.recovering || this.current.status === 'ended')
      return;
    this.recovering = true;
    this.generation = null;
    this.teardown(generation);
    this.update({ status: 'reconnecting', error: { code: error.code, message: error.message } });
    try {
      this.adopt(
        await withRetry(() => this.startGeneration('recover'), {
          policy: this.options.reconnect ?? DEFAULT_RETRY_POLICY,
          signal: this.lifetime.signal,
        }),
      );
      this.update({ status: 'connected', error: null, reconnects: this.current.reconnects + 1 });
    } catch (raw) {
      if (!this.lifetime.signal.aborted) this.end('failed', toMediaError(raw));
    } finally {
      this.recovering = false;
    }
  }

  /** Forgets a generation locally; the server side is gone or goes with the session. */
  private teardown(generation: Generation): void {
    stopTimers(generation);
    for (const feed of [...this.remote.keys()]) this.dropRemote(feed);
    this.update({
      feeds: [],
      streamsReady: { ...this.current.streamsReady, remote: false },
      peerCall: 'Paused',
      peerVideo: 'Paused',
    });
    generation.publisher.hangup();
    void generation.subscriber?.then((handle) => handle.hangup()).catch(() => undefined);
    void generation.gateway.destroy();
  }

  /** A failure after set-up: recorded in the state; recovery is driven by the gateway. */
  private fail(raw: unknown): void {
    if (this.lifetime.signal.aborted) return;
    const error = toMediaError(raw);
    this.update({ error: { code: error.code, message: error.message } });
  }

  /** Leaves the room and releases everything; idempotent. */
  async close(): Promise<void> {
    if (this.current.status === 'ended') return;
    const generation = this.generation;
    this.end('left');
    if (generation) {
      // spec §4: ending the call leaves the room, detaches and destroys the session.
      await generation.publisher
        .requestAsync({ request: 'leave' }, (data) => data.leaving === 'ok' || data.left === 'ok')
        .catch(() => undefined);
      await generation.gateway.destroy();
    }
  }

  private end(reason: EndReason, error?: MediaError): void {
    if (this.current.status === 'ended') return;
    this.lifetime.abort(new MediaError('invalidHandle', `media session ended: ${reason}`));
    clearInterval(this.qualityTimer);
    const generation = this.generation;
    this.generation = null;
    if (generation && reason !== 'left') this.teardown(generation);
    else if (generation) stopTimers(generation);
    for (const track of this.local?.getTracks() ?? []) track.stop();
    this.local = null;
    this.emitter.emit('localStream', null);
    this.update({
      status: 'ended',
      endReason: reason,
      streamsReady: { local: false, remote: false },
      ...(error ? { error: { code: error.code, message: error.message } } : {}),
    });
  }

  private stage(stage: MediaSetupStage, ok: boolean, error: MediaError | null = null): void {
    this.update({ stages: { ...this.current.stages, [stage]: ok } });
    this.emitter.emit('stage', { stage, ok, error });
  }

  private update(patch: Partial<MediaState>): void {
    this.current = { ...this.current, ...patch };
    this.emitter.emit('state', this.current);
  }
}

/** Creates a media session for one participant of one call; nothing happens until `connect`. */
export function createMediaSession(options: MediaSessionOptions): MediaSession {
  return new MediaSession(options);
}
