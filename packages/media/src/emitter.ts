/**
 * A small typed event emitter: `on` returns the unsubscribe function (docs/architecture.md, code
 * style: adapters).
 */
export class Emitter<Events extends Record<string, unknown>> {
  private readonly listeners = new Map<keyof Events, Set<(payload: never) => void>>();

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
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      // A throwing listener must not stop the media layer or the other listeners.
      try {
        (listener as (payload: Events[K]) => void)(payload);
      } catch (error) {
        console.error(`media: a '${String(event)}' listener threw`, error);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
