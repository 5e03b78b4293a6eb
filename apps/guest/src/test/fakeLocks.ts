/**
 * The browser's Web Locks (`navigator.locks`) as far as the guest uses them: exclusive locks by
 * name, `ifAvailable`, and a wait an `AbortSignal` ends. jsdom has none (tests only).
 */
export function fakeLocks(): LockManager {
  const held = new Set<string>();
  const waiting = new Map<string, (() => void)[]>();
  const grant = async <T>(name: string, callback: LockGrantedCallback<T>): Promise<T> => {
    held.add(name);
    try {
      return await callback({ name, mode: 'exclusive' });
    } finally {
      held.delete(name);
      waiting.get(name)?.shift()?.();
    }
  };
  const request = <T>(
    name: string,
    options: LockOptions,
    callback: LockGrantedCallback<T>,
  ): Promise<T> => {
    if (!held.has(name)) return grant(name, callback);
    if (options.ifAvailable) return Promise.resolve(callback(null));
    return new Promise<T>((resolve, reject) => {
      const queue = waiting.get(name) ?? [];
      waiting.set(name, queue);
      const turn = () => void grant(name, callback).then(resolve, reject);
      queue.push(turn);
      options.signal?.addEventListener('abort', () => {
        queue.splice(queue.indexOf(turn), 1);
        reject(options.signal?.reason);
      });
    });
  };
  return {
    request: request as LockManager['request'],
    query: () => Promise.resolve({ held: [], pending: [] }),
  };
}
