/** A burst of signals (a claim ends one call and changes two rooms) makes one request. */
export const SIGNAL_DEBOUNCE_MS = 300;
/** A notice lost on the way (the chat reconnecting) is caught up by this, not by polling. */
export const SAFETY_REFRESH_MS = 30_000;

export type Refresher = {
  /** Something the board shows may have changed: load again once the burst is over. */
  signal: () => void;
  /** Load now, then keep it fresh until `stop`. */
  start: () => void;
  stop: () => void;
};

/**
 * When the wallboard loads: at `start`, `debounceMs` after the last of a burst of signals, and
 * `safetyMs` after the last load when nothing happened. Loads never overlap: a signal that
 * arrives during one makes one more after it, so the board never keeps an answer older than the
 * last change it heard of.
 */
export function createRefresher(
  load: () => Promise<void>,
  { debounceMs = SIGNAL_DEBOUNCE_MS, safetyMs = SAFETY_REFRESH_MS } = {},
): Refresher {
  let running = false;
  let loading = false;
  let again = false;
  let debounce: ReturnType<typeof setTimeout> | undefined;
  let safety: ReturnType<typeof setTimeout> | undefined;

  const run = async () => {
    clearTimeout(safety);
    if (loading) {
      again = true;
      return;
    }
    loading = true;
    try {
      await load();
    } catch {
      // `load` shows its own failure; the next refresh is still due.
    } finally {
      loading = false;
    }
    if (!running) return;
    if (again) {
      again = false;
      void run();
      return;
    }
    safety = setTimeout(() => void run(), safetyMs);
  };

  return {
    signal: () => {
      if (!running) return;
      clearTimeout(debounce);
      debounce = setTimeout(() => void run(), debounceMs);
    },
    start: () => {
      running = true;
      void run();
    },
    stop: () => {
      running = false;
      again = false;
      clearTimeout(debounce);
      clearTimeout(safety);
    },
  };
}
