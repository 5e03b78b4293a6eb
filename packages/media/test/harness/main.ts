// Test page for @frontdesk/media: one participant per page, driven by Playwright through
// `window.harness`. It renders what a user would see (local and remote <video>) so the specs
// can assert on the elements themselves.
import { ApiRequestError, type RoomAccess } from '@frontdesk/protocol';
import {
  createMediaSession,
  listDevices,
  playStream,
  type MediaSession,
  type MediaSessionOptions,
  type MediaState,
} from '../../src/index.ts';

/** Functions the spec exposes from Node (`page.exposeFunction`): what the API does in the app. */
declare global {
  interface Window {
    harness: typeof harness;
    /** Mints a Janus token, as the API will. */
    janusToken(): Promise<string>;
    /** Creates the call's room if missing, as the API will; returns its access, `null` once the call ended. */
    callRoom(): Promise<RoomAccess | null>;
  }
}

/** The session's options a spec chooses. */
export type HarnessConfig = Pick<
  MediaSessionOptions,
  'server' | 'display' | 'callType' | 'reconnect' | 'video' | 'joinDelayMs' | 'feedDelayMs'
>;

export interface InboundFigures {
  video: { bytes: number; frames: number; width: number; height: number } | null;
  audio: { bytes: number; packets: number; energy: number } | null;
}

let session: MediaSession | undefined;
let startedAt = 0;
let firstFrameMs: number | null = null;
const log: string[] = [];
const remoteMedia = document.querySelector<HTMLElement>('[data-testid="remote-media"]');
const localVideo = document.querySelector<HTMLVideoElement>('[data-testid="local-video"]');

function remoteElement(janusId: string, display: string): HTMLVideoElement {
  const existing = document.querySelector<HTMLVideoElement>(`[data-feed="${janusId}"]`);
  if (existing) return existing;
  const video = document.createElement('video');
  video.autoplay = true;
  video.playsInline = true;
  video.dataset.feed = janusId;
  video.dataset.testid = `remote-video-${display}`;
  remoteMedia?.append(video);
  const onFrame = () => {
    if (firstFrameMs === null && video.videoWidth > 0) firstFrameMs = performance.now() - startedAt;
  };
  video.requestVideoFrameCallback(onFrame);
  return video;
}

const harness = {
  async start(config: HarnessConfig): Promise<void> {
    startedAt = performance.now();
    session = createMediaSession({
      ...config,
      token: () => window.janusToken(),
      // As the apps' API client fails on the API's 409 for an ended call's room.
      room: async () =>
        (await window.callRoom()) ??
        Promise.reject(new ApiRequestError(409, 'call_ended', 'The call has ended.')),
      // The spec's delays are kept: the figures the specs print include them.
    });
    session.on('localStream', (stream) => {
      if (localVideo) void playStream(localVideo, stream);
    });
    session.on('remoteStream', ({ janusId, display, stream }) => {
      const element = remoteElement(janusId, display);
      if (stream) void playStream(element, stream, { volume: 1 });
      else element.remove();
    });
    session.on('stage', ({ stage, ok }) => log.push(`stage ${stage} ${ok}`));
    session.on('iceFailed', ({ direction }) => log.push(`iceFailed ${direction}`));
    let last = '';
    session.on('state', (state) => {
      if (state.status !== last) log.push(`status ${state.status}`);
      last = state.status;
    });
    await session.connect();
  },

  state(): MediaState | null {
    return session?.state ?? null;
  },

  log(): string[] {
    return log;
  },

  firstFrameMs(): number | null {
    return firstFrameMs;
  },

  /** The remote <video> elements as the user sees them. */
  remoteVideos(): { display: string; width: number; height: number; hasStream: boolean }[] {
    return [...document.querySelectorAll<HTMLVideoElement>('[data-feed]')].map((video) => ({
      display: video.dataset.testid ?? '',
      width: video.videoWidth,
      height: video.videoHeight,
      hasStream: video.srcObject !== null,
    }));
  },

  /** Cumulative inbound counters from the subscriber PeerConnection. */
  async inbound(): Promise<InboundFigures> {
    const figures: InboundFigures = { video: null, audio: null };
    const report = (await session?.stats())?.subscribe;
    report?.forEach((stat: Record<string, unknown>) => {
      if (stat.type !== 'inbound-rtp') return;
      const n = (key: string) => (typeof stat[key] === 'number' ? (stat[key] as number) : 0);
      if (stat.kind === 'video') {
        figures.video = {
          bytes: n('bytesReceived'),
          frames: n('framesDecoded'),
          width: n('frameWidth'),
          height: n('frameHeight'),
        };
      } else if (stat.kind === 'audio') {
        figures.audio = {
          bytes: n('bytesReceived'),
          packets: n('packetsReceived'),
          energy: n('totalAudioEnergy'),
        };
      }
    });
    return figures;
  },

  /** What the app sends the API as this side's quality report at the end of the call. */
  qualityReport() {
    return session?.qualityReport() ?? null;
  },

  async mute(kind: 'audio' | 'video', muted: boolean): Promise<void> {
    await session?.setMuted(kind, muted);
  },

  async switchPreset(preset: 'lowres' | 'stdres'): Promise<void> {
    await session?.switchCamera({ facingMode: 'user' }, preset);
  },

  async restartIce(): Promise<void> {
    await session?.restartIce();
  },

  async hold(onHold: boolean): Promise<void> {
    await session?.setOnHold(onHold);
  },

  /** Our ICE username fragments (publish, subscribe): an ICE restart changes them. */
  async iceUfrags(): Promise<(string | null)[]> {
    const stats = await session?.stats();
    return [stats?.publish, stats?.subscribe].map((report) => {
      let ufrag: string | null = null;
      report?.forEach((stat: Record<string, unknown>) => {
        if (stat.type === 'transport' && typeof stat.iceLocalUsernameFragment === 'string') {
          ufrag = stat.iceLocalUsernameFragment;
        }
      });
      return ufrag;
    });
  },

  async devices(): Promise<{ cameras: number; microphones: number }> {
    const list = await listDevices();
    return { cameras: list.cameras.length, microphones: list.microphones.length };
  },

  async close(): Promise<void> {
    await session?.close();
  },
};

window.harness = harness;
