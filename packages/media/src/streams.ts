import { useSyncExternalStore } from 'react';

/** The key of one's own camera stream in a {@link StreamRegistry}; a remote feed's is its Janus id. */
export const LOCAL_STREAM = 'local';

/**
 * A call's media streams by key, outside any store (a MediaStream is a live object, not data).
 * Each app keeps one in the `Connections` its services own; listeners fill it from the media
 * session's events, and components read it with {@link useStream}.
 */
export class StreamRegistry {
  readonly #streams = new Map<string, MediaStream>();
  readonly #listeners = new Set<() => void>();
  #version = 0;

  /** Records the stream under `key`; `null`: it is gone. */
  set(key: string, stream: MediaStream | null): void {
    if (stream) this.#streams.set(key, stream);
    else this.#streams.delete(key);
    this.#changed();
  }

  get(key: string): MediaStream | undefined {
    return this.#streams.get(key);
  }

  clear(): void {
    this.#streams.clear();
    this.#changed();
  }

  /** For `useSyncExternalStore`: a number that changes whenever a stream does. */
  get version(): number {
    return this.#version;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  };

  #changed(): void {
    this.#version += 1;
    for (const listener of this.#listeners) listener();
  }
}

/** The stream under `key` in `registry`, re-rendering the component when it changes. */
export function useStream(registry: StreamRegistry, key: string | undefined): MediaStream | null {
  useSyncExternalStore(registry.subscribe, () => registry.version);
  return key === undefined ? null : (registry.get(key) ?? null);
}
