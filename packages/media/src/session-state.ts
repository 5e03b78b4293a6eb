import { Emitter, type ConnectionStatus, type MediaSetupStage } from '@frontdesk/protocol';
import { MediaError, mediaListenerFailed, toMediaError } from './errors.ts';
import { captureLocal, webrtcSupported, type LocalMediaHost } from './local-media.ts';
import type { CallMarks } from './quality-report.ts';
import type { EndReason, MediaSessionEvents, MediaState } from './types.ts';

/**
 * A session's state before `connect`, whichever way its media goes (a fake session's start in
 * tests, too). Never mutated, as no `MediaState` is: copy it to change it.
 */
export const INITIAL_MEDIA_STATE: MediaState = {
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

/**
 * What both media sessions (Janus and p2p) are to the app: the plain state, its status and the
 * events, and a set-up that begins with our camera and microphone. A session is the only
 * emitter and owns the state; its parts report through `update`, `stage` and `emitter`.
 */
export abstract class MediaStateOwner {
  protected readonly emitter = new Emitter<MediaSessionEvents>(mediaListenerFailed);
  private current: MediaState = INITIAL_MEDIA_STATE;
  private connecting: Promise<void> | null = null;
  /** Where our captured camera and microphone are kept. */
  protected abstract readonly localMedia: LocalMediaHost;
  /** What the call's quality report needs that no statistics tell (set-up, reconnects, ICE). */
  protected readonly marks: CallMarks = {
    acceptedAt: null,
    publishedAt: null,
    firstRemoteMediaAt: null,
    reconnects: 0,
    iceFailed: false,
  };

  get state(): MediaState {
    return this.current;
  }

  get status(): ConnectionStatus {
    return this.current.status;
  }

  get localStream(): MediaStream | null {
    return this.localMedia.local;
  }

  on<K extends keyof MediaSessionEvents>(
    event: K,
    listener: (payload: MediaSessionEvents[K]) => void,
  ): () => void {
    return this.emitter.on(event, listener);
  }

  /**
   * Captures local media, then sets up the rest ({@link join}); resolves once that is done,
   * the remote feeds follow as events. Calling it again returns the same attempt (spec §9:
   * joining is throttled to the leading call). Rejects, with status `closed`, if set-up fails.
   */
  connect(): Promise<void> {
    this.marks.acceptedAt ??= performance.now();
    this.connecting ??= this.setup().catch((raw: unknown) => {
      const error = toMediaError(raw);
      this.end('failed', error);
      throw error;
    });
    return this.connecting;
  }

  private async setup(): Promise<void> {
    this.update({ status: 'connecting' });
    if (!webrtcSupported()) {
      throw new MediaError('webrtcUnsupported', 'WebRTC not supported by this browser');
    }
    await captureLocal(this.localMedia);
    await this.join();
  }

  /** The set-up after our media is captured: the room (Janus), the peer connection (p2p). */
  protected abstract join(): Promise<void>;

  protected abstract end(reason: EndReason, error?: MediaError): void;

  /**
   * The moment the call was accepted, for the set-up time of the quality report, when it is
   * not when this session began to connect (a guest publishes while it waits for an agent).
   */
  markAccepted(atMs: number = performance.now()): void {
    this.marks.acceptedAt = atMs;
  }

  protected stage(stage: MediaSetupStage, ok: boolean, error: MediaError | null = null): void {
    this.update({ stages: { ...this.current.stages, [stage]: ok } });
    this.emitter.emit('stage', { stage, ok, error });
  }

  protected update(patch: Partial<MediaState>): void {
    const previous = this.current.status;
    this.current = { ...this.current, ...patch };
    // A path lost and found again (an ICE restart, or a re-created Janus session).
    if (previous === 'reconnecting' && this.current.status === 'connected') {
      this.marks.reconnects += 1;
    }
    if (this.current.status !== previous) this.emitter.emit('status', this.current.status);
    this.emitter.emit('state', this.current);
  }
}
