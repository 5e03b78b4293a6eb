/**
 * A Web Lock this tab holds (`navigator.locks`: this origin, this browser) so that another tab
 * knows the thing it names is open here (decisions 0025, 0027): `release` lets another tab take it.
 */
export type TabLock = { release: () => void };

/**
 * Claims the lock `name` for this tab, waiting up to `waitMs` for another page to let go of it (a
 * reload's old page lets go as it unloads, which the lock manager may learn just after the new
 * page asks); `null` when another tab still holds it. A browser without Web Locks gets a lock
 * that guards nothing.
 */
export function claimTabLock(name: string, waitMs: number): Promise<TabLock | null> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return Promise.resolve({ release: () => undefined });
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  return new Promise((resolve) => {
    const granted = () => {
      resolve({ release });
      return held;
    };
    const request =
      waitMs > 0
        ? locks.request(name, { signal: AbortSignal.timeout(waitMs) }, granted)
        : locks.request(name, { ifAvailable: true }, (lock) => (lock ? granted() : resolve(null)));
    // Aborted: the wait ran out with the lock still held elsewhere.
    request.catch(() => resolve(null));
  });
}
