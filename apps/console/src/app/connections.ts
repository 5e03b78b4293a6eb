import type { ChatSession } from '@frontdesk/chat';
import type { MediaSession } from '@frontdesk/media';

/** The key of this agent's own camera stream among {@link Connections.stream}. */
export const LOCAL_STREAM = 'local';

/**
 * The signed-in agent's live adapters and media streams (docs/architecture.md, code style: live
 * objects stay out of the store). Listeners create and close them; components read streams through
 * {@link Connections.subscribe}, the store only ever sees plain data.
 */
export class Connections {
  chat: ChatSession | undefined;
  media: MediaSession | undefined;
  /** The media adapter's `playStream`, once the adapter is loaded. */
  play: ((element: HTMLMediaElement, stream: MediaStream | null) => Promise<void>) | undefined;
  readonly #streams = new Map<string, MediaStream>();
  readonly #listeners = new Set<() => void>();
  #version = 0;

  /** Records the local stream (`LOCAL_STREAM`) or a remote feed's (its Janus id); null: gone. */
  setStream(key: string, stream: MediaStream | null): void {
    if (stream) this.#streams.set(key, stream);
    else this.#streams.delete(key);
    this.#changed();
  }

  stream(key: string): MediaStream | undefined {
    return this.#streams.get(key);
  }

  /** For `useSyncExternalStore`: a number that changes whenever a stream does. */
  get version(): number {
    return this.#version;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  };

  /** Leaves the call's media (idempotent) and forgets its streams. */
  async closeMedia(): Promise<void> {
    const media = this.media;
    this.media = undefined;
    this.#streams.clear();
    this.#changed();
    await media?.close();
  }

  /** Signing out: the media first (it leaves the Janus room), then the chat. */
  async closeAll(): Promise<void> {
    await this.closeMedia();
    const chat = this.chat;
    this.chat = undefined;
    await chat?.close();
  }

  #changed(): void {
    this.#version += 1;
    for (const listener of this.#listeners) listener();
  }
}
