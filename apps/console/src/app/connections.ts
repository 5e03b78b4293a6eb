import type { ChatSession } from '@frontdesk/chat';
import type { MediaSession } from '@frontdesk/media';
import { StreamRegistry } from '@frontdesk/media/streams';

/**
 * The call's media, through the media server or straight to the guest (`p2p`, decision 0045):
 * what the console asks of either. `ended`: the session closes because the call ended — a p2p
 * guest learns it from this side, as no media server destroys a room for it.
 */
export type CallMedia = Pick<
  MediaSession,
  | 'on'
  | 'connect'
  | 'setOnHold'
  | 'setMuted'
  | 'switchCamera'
  | 'switchMicrophone'
  | 'qualityReport'
> & { close: (options?: { ended?: boolean }) => Promise<void> };

/**
 * The signed-in agent's live adapters and media streams (docs/architecture.md, code style: live
 * objects stay out of the store). Listeners create and close them; components read streams through
 * `useStream` (@frontdesk/media/streams), the store only ever sees plain data.
 */
export class Connections {
  chat: ChatSession | undefined;
  media: CallMedia | undefined;
  /** The media adapter's `playStream`, once the adapter is loaded. */
  play: ((element: HTMLMediaElement, stream: MediaStream | null) => Promise<void>) | undefined;
  readonly streams = new StreamRegistry();
  /** This tab's hold on the call it has open (decision 0027: another tab of the agent's stays out). */
  callLock: { callId: string; release: () => void } | undefined;

  /** Lets another tab of the agent's take the call up (its end, or a rejoin refused). */
  releaseCall(): void {
    this.callLock?.release();
    this.callLock = undefined;
  }

  /** Leaves the call's media (idempotent) and forgets its streams; see {@link CallMedia}. */
  async closeMedia(options: { ended?: boolean } = {}): Promise<void> {
    const media = this.media;
    this.media = undefined;
    this.streams.clear();
    await media?.close(options);
  }

  /** Signing out: the media first (it leaves the Janus room), then the chat. */
  async closeAll(): Promise<void> {
    this.releaseCall();
    await this.closeMedia();
    const chat = this.chat;
    this.chat = undefined;
    await chat?.close();
  }
}
