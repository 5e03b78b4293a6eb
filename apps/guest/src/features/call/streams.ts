import { useSyncExternalStore } from 'react';

/**
 * The call's live media streams, kept out of the store (docs/architecture.md, code style: live
 * objects stay out) and read by the video components through {@link useStream}.
 */
const streams = new Map<string, MediaStream | null>();
const listeners = new Set<() => void>();

export const LOCAL_STREAM = 'local';

export function streamChanged(key: string, stream: MediaStream | null): void {
  if (stream) streams.set(key, stream);
  else streams.delete(key);
  for (const listener of listeners) listener();
}

export function clearStreams(): void {
  streams.clear();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The stream under `key` (`local` or a remote feed's janusId), re-rendering when it changes. */
export function useStream(key: string | undefined): MediaStream | null {
  return useSyncExternalStore(subscribe, () => (key ? (streams.get(key) ?? null) : null));
}
