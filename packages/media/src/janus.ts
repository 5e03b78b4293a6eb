// The one module that touches janus.js (ESLint bans it elsewhere). It turns the library's
// callbacks into promises and typed events; everything above it speaks our own types.
import Janus, { type JanusJS } from 'janus-gateway';
import adapter from 'webrtc-adapter';
import {
  GATEWAY_KEEPALIVE_MS,
  GATEWAY_LONG_POLL_TIMEOUT_MS,
  GATEWAY_MAX_POLL_EVENTS,
  Emitter,
} from '@frontdesk/protocol';
import { MediaError, mediaListenerFailed, toMediaError, videoroomError } from './errors.ts';
import { webrtcSupported } from './local-media.ts';

export type Jsep = JanusJS.JSEP;
export type TrackOption = JanusJS.TrackOption;
export type PluginData = Record<string, unknown>;

const VIDEOROOM = 'janus.plugin.videoroom';
/** A plugin request whose answer never comes (e.g. a WebSocket that died silently) fails here. */
const REQUEST_TIMEOUT_MS = 15_000;

let initialised: Promise<void> | undefined;

/** spec §5: the library must be initialised before any session; done once per page. */
function initJanus(debug: boolean): Promise<void> {
  initialised ??= new Promise((resolve) => {
    Janus.init({
      // janus.d.ts declares DebugLevel as an ambient enum that cannot be referenced at
      // runtime; its values are these strings.
      debug: debug ? 'all' : (['warn', 'error'] as unknown as JanusJS.DebugLevel[]),
      // janus.js reads a global `adapter` unless given one (docs/operations.md).
      dependencies: Janus.useDefaultDependencies({ adapter }),
      callback: () => resolve(),
    });
  });
  return initialised;
}

/** Browser facts the media layer needs (spec §5 Safari rule). */
export function browserSupport(): { webrtc: boolean; safari: boolean; vp8: boolean; vp9: boolean } {
  // webRTCAdapter and safariVp9 are set by Janus.init but missing from or loosely typed in janus.d.ts.
  const lib = Janus as unknown as {
    webRTCAdapter?: { browserDetails?: { browser?: string } };
    safariVp8?: boolean;
    safariVp9?: boolean;
  };
  return {
    webrtc: webrtcSupported(),
    safari: lib.webRTCAdapter?.browserDetails?.browser === 'safari',
    vp8: lib.safariVp8 === true,
    vp9: lib.safariVp9 === true,
  };
}

export interface GatewayOptions {
  readonly server: string | string[];
  readonly token: string;
  /** The room's, from the API; always given, as janus.js would otherwise use a public STUN server. */
  readonly iceServers: RTCIceServer[];
  readonly debug?: boolean;
}

/** A Janus session (one per MediaSession generation). */
export class Gateway {
  /** `lost`: the session died after it was up (spec §8 "Lost connection…"). */
  readonly events = new Emitter<{ lost: MediaError }>(mediaListenerFailed);
  private closed = false;

  private constructor(private readonly janus: JanusJS.Janus) {}

  /** Creates the session; rejects with the gateway's own error (spec §8). */
  static async open(options: GatewayOptions): Promise<Gateway> {
    await initJanus(options.debug === true);
    return new Promise((resolve, reject) => {
      let gateway: Gateway | undefined;
      const janus: JanusJS.Janus = new Janus({
        server: options.server,
        token: options.token,
        iceServers: options.iceServers,
        // spec §9: keepalive 25 s, long-poll timeout 60 s, at most 10 events per poll.
        keepAlivePeriod: GATEWAY_KEEPALIVE_MS,
        longPollTimeout: GATEWAY_LONG_POLL_TIMEOUT_MS,
        max_poll_events: GATEWAY_MAX_POLL_EVENTS,
        success: () => {
          gateway = new Gateway(janus);
          resolve(gateway);
        },
        error: (raw: unknown) => {
          const error = toMediaError(raw);
          if (!gateway) reject(error);
          else if (!gateway.closed) gateway.events.emit('lost', error);
        },
      });
    });
  }

  /** Attaches a videoroom handle. */
  attach(): Promise<VideoroomHandle> {
    return new Promise((resolve, reject) => {
      const events = new Emitter<HandleEvents>(mediaListenerFailed);
      this.janus.attach({
        plugin: VIDEOROOM,
        success: (raw) => resolve(new VideoroomHandle(raw, events)),
        error: (raw) => reject(toMediaError(raw)),
        onmessage: (data, jsep) => events.emit('message', { data: data as PluginData, jsep }),
        onremotetrack: (track, mid, on, meta) =>
          events.emit('remoteTrack', { track, mid, on, reason: meta?.reason ?? 'created' }),
        iceState: (state) => events.emit('ice', state),
        mediaState: (kind, receiving) => events.emit('media', { kind, receiving }),
        webrtcState: (up) => events.emit('webrtc', up),
        oncleanup: () => events.emit('cleanup', undefined),
      });
    });
  }

  /** Destroys the session on the server if it can; idempotent. */
  destroy(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.events.clear();
    return new Promise((resolve) => {
      // A dead server cannot answer: do not wait for it longer than a moment.
      const timer = setTimeout(resolve, 2000);
      this.janus.destroy({
        cleanupHandles: true,
        notifyDestroyed: false,
        success: () => {
          clearTimeout(timer);
          resolve();
        },
        error: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }
}

export interface HandleEvents extends Record<string, unknown> {
  message: { data: PluginData; jsep: Jsep | undefined };
  remoteTrack: { track: MediaStreamTrack; mid: string; on: boolean; reason: string };
  /** The PeerConnection's iceConnectionState (janus.d.ts lists only four of its values). */
  ice: RTCIceConnectionState;
  /** Janus started or stopped receiving our audio or video (its `media` event, publishers). */
  media: { kind: 'audio' | 'video'; receiving: boolean };
  webrtc: boolean;
  cleanup: undefined;
}

/** A videoroom plugin handle with promise-returning requests. */
export class VideoroomHandle {
  constructor(
    private readonly raw: JanusJS.PluginHandle,
    readonly events: Emitter<HandleEvents>,
  ) {}

  /** The PeerConnection once an offer or answer was made. */
  get pc(): RTCPeerConnection | null {
    // janus.d.ts types webrtcStuff.pc as always present; it is null before negotiation.
    return (this.raw.webrtcStuff.pc as RTCPeerConnection | null | undefined) ?? null;
  }

  /** Local and remote SDP, for the call-report update on ICE failure (spec §8). */
  sdp(): { local: string | null; remote: string | null } {
    return {
      local: this.pc?.localDescription?.sdp ?? null,
      remote: this.pc?.remoteDescription?.sdp ?? null,
    };
  }

  /** A synchronous request (`create`, `exists`…): resolves with the plugin's answer. */
  request(body: PluginData): Promise<PluginData> {
    return new Promise((resolve, reject) => {
      this.raw.send({
        message: body as JanusJS.PluginMessage['message'],
        success: (data?: PluginData) => {
          if (data && typeof data.error_code === 'number') {
            reject(videoroomError(data.error_code, String(data.error)));
          } else resolve(data ?? {});
        },
        error: (raw) => reject(toMediaError(raw)),
      });
    });
  }

  /**
   * An asynchronous request (`join`, `configure`, `start`…): resolves with the first event
   * that `done` accepts, rejects with the first videoroom error event, or on timeout.
   */
  requestAsync(
    body: PluginData,
    done: (data: PluginData) => boolean,
    jsep?: Jsep,
  ): Promise<{ data: PluginData; jsep: Jsep | undefined }> {
    return new Promise((resolve, reject) => {
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        off();
        settle();
      };
      const timer = setTimeout(
        () => finish(() => reject(new MediaError('timeout', `${String(body.request)} timed out`))),
        REQUEST_TIMEOUT_MS,
      );
      const off = this.events.on('message', (event) => {
        if (typeof event.data.error_code === 'number') {
          const error = videoroomError(event.data.error_code, String(event.data.error));
          finish(() => reject(error));
        } else if (done(event.data)) finish(() => resolve(event));
      });
      this.raw.send({
        message: body as JanusJS.PluginMessage['message'],
        ...(jsep ? { jsep } : {}),
        error: (raw) => finish(() => reject(toMediaError(raw))),
      });
    });
  }

  /** spec §5: an offer is made from our own tracks only, never from a supplied description. */
  createOffer(tracks: TrackOption[], iceRestart = false): Promise<Jsep> {
    return new Promise((resolve, reject) => {
      this.raw.createOffer({
        tracks,
        iceRestart,
        success: resolve,
        error: (raw) => reject(toMediaError(raw)),
      });
    });
  }

  /** spec §5: an answer needs a remote description with type and sdp. */
  createAnswer(jsep: Jsep, tracks: TrackOption[]): Promise<Jsep> {
    if (!jsep.type || !jsep.sdp) {
      return Promise.reject(
        new MediaError('invalidJsep', 'A valid JSEP is required for createAnswer'),
      );
    }
    return new Promise((resolve, reject) => {
      this.raw.createAnswer({
        jsep,
        tracks,
        success: resolve,
        error: (raw) => reject(toMediaError(raw)),
      });
    });
  }

  handleRemoteJsep(jsep: Jsep): Promise<void> {
    return new Promise((resolve, reject) => {
      this.raw.handleRemoteJsep({
        jsep,
        success: () => resolve(),
        error: (raw) => reject(toMediaError(raw)),
      });
    });
  }

  /** Swaps or removes sending tracks without renegotiating when the transceiver allows it. */
  replaceTracks(tracks: TrackOption[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.raw.replaceTracks({
        tracks,
        success: () => resolve(),
        error: (raw) => reject(toMediaError(raw)),
      });
    });
  }

  /** Closes the PeerConnection, keeping the handle. */
  hangup(): void {
    this.raw.hangup(false);
  }

  detach(): Promise<void> {
    return new Promise((resolve) => {
      this.events.clear();
      this.raw.detach({ success: () => resolve(), error: () => resolve() });
    });
  }
}
