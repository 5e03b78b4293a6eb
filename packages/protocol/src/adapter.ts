/**
 * What the two adapters (packages/chat over StanzaJS, packages/media over janus.js) have in
 * common, so that the apps hold, observe and end either the same way (issue 14, item 3).
 */

/**
 * A session's life: `connecting` before it first connects, `reconnecting` after a drop while it
 * recovers by itself, `closed` once it ended (we closed it, the server ended it, or it failed for
 * good); a closed session never opens again.
 */
export type ConnectionStatus = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'closed';

/** Every adapter session announces its status changes as `status`. */
export interface SessionEvents {
  status: ConnectionStatus;
}

/** The members every adapter session has; each adds its own (rooms and messages, or media). */
export interface AdapterSession<Events extends SessionEvents> {
  readonly status: ConnectionStatus;
  /** Subscribes to one kind of event; returns the unsubscribe function. */
  on<K extends keyof Events>(event: K, listener: (payload: Events[K]) => void): () => void;
  /** Resolves once connected; rejects (and the session is `closed`) if it cannot be. */
  connect(): Promise<void>;
  /** Ends the session and releases what it holds; idempotent. */
  close(): Promise<void>;
}

/**
 * The typed event emitter of the adapters. A listener that throws is reported and skipped: it
 * must stop neither the adapter nor the other listeners.
 */
export class Emitter<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<(payload: never) => void>>();

  constructor(private readonly listenerFailed: (event: string, error: unknown) => void) {}

  on<K extends keyof Events>(event: K, listener: (payload: Events[K]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    // A copy: a listener may unsubscribe (itself or another) while the event is delivered.
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      try {
        (listener as (payload: Events[K]) => void)(payload);
      } catch (error) {
        this.listenerFailed(String(event), error);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
