import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRefresher, SAFETY_REFRESH_MS, SIGNAL_DEBOUNCE_MS } from './wallboardRefresh.ts';

/** A load that resolves when the test says so, counting how many began. */
function controlledLoad() {
  const pending: (() => void)[] = [];
  const load = vi.fn(
    () =>
      new Promise<void>((resolve) => {
        pending.push(resolve);
      }),
  );
  const finish = async () => {
    pending.shift()?.();
    await vi.advanceTimersByTimeAsync(0);
  };
  return { load, finish };
}

describe('when the wallboard loads', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('loads at once, then once after a burst of signals has been quiet for the debounce', async () => {
    const { load, finish } = controlledLoad();
    const refresher = createRefresher(load);
    refresher.start();
    expect(load).toHaveBeenCalledTimes(1);
    await finish();

    refresher.signal();
    await vi.advanceTimersByTimeAsync(SIGNAL_DEBOUNCE_MS - 50);
    refresher.signal();
    await vi.advanceTimersByTimeAsync(SIGNAL_DEBOUNCE_MS - 50);
    refresher.signal();
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(SIGNAL_DEBOUNCE_MS);
    expect(load).toHaveBeenCalledTimes(2);
    refresher.stop();
  });

  it('never overlaps loads: a signal during one makes exactly one more after it', async () => {
    const { load, finish } = controlledLoad();
    const refresher = createRefresher(load);
    refresher.start();
    refresher.signal();
    await vi.advanceTimersByTimeAsync(SIGNAL_DEBOUNCE_MS);
    refresher.signal();
    await vi.advanceTimersByTimeAsync(SIGNAL_DEBOUNCE_MS);
    expect(load).toHaveBeenCalledTimes(1);

    await finish();
    expect(load).toHaveBeenCalledTimes(2);
    await finish();
    await vi.advanceTimersByTimeAsync(SIGNAL_DEBOUNCE_MS);
    expect(load).toHaveBeenCalledTimes(2);
    refresher.stop();
  });

  it('refreshes by itself only after the safety period without a load, even after a failure', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(undefined);
    const refresher = createRefresher(load);
    refresher.start();
    await vi.advanceTimersByTimeAsync(SAFETY_REFRESH_MS - 1);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(2);

    // A signal's load puts the next safety refresh off by a whole period.
    await vi.advanceTimersByTimeAsync(SAFETY_REFRESH_MS / 2);
    refresher.signal();
    await vi.advanceTimersByTimeAsync(SIGNAL_DEBOUNCE_MS);
    expect(load).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(SAFETY_REFRESH_MS - 1);
    expect(load).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(4);
    refresher.stop();
  });

  it('does nothing more once stopped, whatever was due', async () => {
    const { load, finish } = controlledLoad();
    const refresher = createRefresher(load);
    refresher.start();
    refresher.signal();
    refresher.stop();
    await finish();
    refresher.signal();
    await vi.advanceTimersByTimeAsync(SAFETY_REFRESH_MS * 2);
    expect(load).toHaveBeenCalledTimes(1);
  });
});
