import type { AdapterSession, CallQualityBody } from '@frontdesk/protocol';
import { Connection } from './connection.ts';
import { stopTimers, type SessionContext } from './context.ts';
import { MediaError, toMediaError } from './errors.ts';
import { IceWatch } from './ice.ts';
import { releaseLocal } from './local-media.ts';
import { LocalPublisher } from './publisher.ts';
import { janusMedia, QualitySampler } from './quality-sampler.ts';
import { MediaStateOwner } from './session-state.ts';
import { RemoteFeeds } from './subscribers.ts';
import { validateCapture, type CameraChoice, type VideoOptions } from './tracks.ts';
import type {
  EndReason,
  MediaDirection,
  MediaSessionEvents,
  MediaSessionOptions,
} from './types.ts';

/**
 * A participant's media in one call over the Janus videoroom: publishes the local camera and
 * microphone, subscribes to the other publishers, and recovers from lost sessions and ICE
 * failures. Live objects (handles, streams) stay inside; {@link MediaSession.state} is plain.
 *
 * The work is done by its parts, which share a {@link SessionContext}: `LocalPublisher` (our
 * stream), `RemoteFeeds` (the other participants), `IceWatch` (ICE health and restarts),
 * `Connection` (a generation's set-up, recovery and teardown) and `QualitySampler` (stats).
 * The session is the only emitter and owns the state (its MediaStateOwner part).
 */
export class MediaSession extends MediaStateOwner implements AdapterSession<MediaSessionEvents> {
  private readonly lifetime = new AbortController();
  private readonly ctx: SessionContext;
  protected readonly localMedia: SessionContext;
  private readonly publisher: LocalPublisher;
  private readonly feeds: RemoteFeeds;
  private readonly ice: IceWatch;
  private readonly connection: Connection;
  private readonly sampler: QualitySampler;

  constructor(options: MediaSessionOptions) {
    super();
    // spec §5: a server URL is required; bitrate and framerate must be non-negative.
    if (options.server.length === 0) throw new MediaError('invalidServerUrl', 'Invalid server url');
    validateCapture(options);
    this.ctx = {
      options,
      signal: this.lifetime.signal,
      generation: null,
      local: null,
      recovering: false,
      marks: this.marks,
      state: () => this.state,
      update: (patch) => this.update(patch),
      stage: (stage, ok, error) => this.stage(stage, ok, error),
      emit: (event, payload) => this.emitter.emit(event, payload),
      fail: (raw) => this.fail(raw),
      end: (reason, error) => this.end(reason, error),
    };
    this.localMedia = this.ctx;
    this.publisher = new LocalPublisher(this.ctx);
    this.ice = new IceWatch(this.ctx, this.publisher);
    this.feeds = new RemoteFeeds(this.ctx, this.ice);
    this.connection = new Connection(this.ctx, this.publisher, this.feeds, this.ice);
    this.sampler = new QualitySampler(janusMedia(this.ctx, this.feeds));
  }

  /** The live stream of a remote feed, for a `<video>`/`<audio>` element. */
  remoteStream(janusId: string): MediaStream | undefined {
    return this.feeds.stream(janusId);
  }

  /** Enters the room and publishes: `connect` resolves once published. */
  protected async join(): Promise<void> {
    this.connection.adopt(await this.connection.start('setup'));
    this.ctx.marks.publishedAt = performance.now();
    this.update({ status: 'connected' });
    this.sampler.start();
  }

  /** Mutes or unmutes our microphone or camera; the peer's track goes muted (no packets). */
  async setMuted(kind: 'audio' | 'video', muted: boolean): Promise<void> {
    await this.publisher.setMuted(kind, muted);
  }

  /** Hold: stop sending and receiving without leaving the room; resume undoes it. */
  async setOnHold(onHold: boolean): Promise<void> {
    await this.publisher.setOnHold(onHold);
  }

  /** Switches camera (or preset, or back camera) with replaceTrack: no renegotiation. */
  async switchCamera(choice: CameraChoice, preset?: VideoOptions['preset']): Promise<void> {
    await this.publisher.switchCamera(choice, preset);
  }

  /** Switches microphone with replaceTrack: no renegotiation. */
  async switchMicrophone(deviceId: string): Promise<void> {
    await this.publisher.switchMicrophone(deviceId);
  }

  /** Raw WebRTC statistics of both PeerConnections (diagnostics and tests). */
  stats(): Promise<{ publish: RTCStatsReport | null; subscribe: RTCStatsReport | null }> {
    return this.sampler.stats();
  }

  /**
   * What this side measured of the call's media, for `PUT /api/calls/:callId/quality`: set-up
   * time, the ICE route, packets, jitter, round trip, average bitrates, reconnects and whether
   * ICE failed. Ask before `close()` for a last reading; after the end, the last sample counts.
   */
  qualityReport(): Promise<CallQualityBody> {
    return this.sampler.report();
  }

  /** Restarts ICE on one PeerConnection or both (fresh credentials, same media). */
  async restartIce(direction: MediaDirection | 'both' = 'both'): Promise<void> {
    await this.ice.restart(direction);
  }

  /** A failure after set-up: recorded in the state; recovery is driven by the gateway. */
  private fail(raw: unknown): void {
    if (this.lifetime.signal.aborted) return;
    const error = toMediaError(raw);
    this.update({ error: { code: error.code, message: error.message } });
  }

  /** Leaves the room and releases everything; idempotent. */
  async close(): Promise<void> {
    if (this.state.status === 'closed') return;
    const generation = this.ctx.generation;
    this.end('left');
    if (generation) await this.connection.leave(generation);
  }

  protected end(reason: EndReason, error?: MediaError): void {
    if (this.state.status === 'closed') return;
    this.lifetime.abort(new MediaError('invalidHandle', `media session ended: ${reason}`));
    this.sampler.stop();
    const generation = this.ctx.generation;
    this.ctx.generation = null;
    if (generation && reason !== 'left') this.connection.teardown(generation);
    else if (generation) stopTimers(generation);
    releaseLocal(this.ctx);
    this.update({
      status: 'closed',
      endReason: reason,
      streamsReady: { local: false, remote: false },
      ...(error ? { error: { code: error.code, message: error.message } } : {}),
    });
  }
}

/** Creates a media session for one participant of one call; nothing happens until `connect`. */
export function createMediaSession(options: MediaSessionOptions): MediaSession {
  return new MediaSession(options);
}
