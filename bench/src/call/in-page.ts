// Clocks taken inside the pages. Each watcher is armed before the action it times and reports
// a wall-clock instant in milliseconds (`performance.timeOrigin + performance.now()`), the same
// scale in every page of the browser and in Node, so instants of the guest page, the console and
// the benchmark compare directly. Playwright's round trips are not part of any figure.
//
// The page functions are inline arrows on purpose: tsx's esbuild wraps named functions in a
// `__name` helper that does not exist in the page (see web/browser.ts).
import type { JSHandle, Page } from 'playwright-core';

/** An armed watcher: `at()` resolves with the instant it saw its event, in epoch milliseconds. */
export type Watch = { at: () => Promise<number> };

type Armed = { done: Promise<number> };

function watch(handle: JSHandle<Armed>): Watch {
  return { at: () => handle.evaluate((armed) => armed.done) };
}

/** Node's clock on the pages' scale. */
export const nowMs = () => performance.timeOrigin + performance.now();

/** The next click in the page, at the instant the browser created the event. */
export async function armClick(page: Page): Promise<Watch> {
  const handle = await page.evaluateHandle(() => ({
    done: new Promise<number>((resolve) => {
      document.addEventListener(
        'click',
        (event) => resolve(performance.timeOrigin + event.timeStamp),
        { capture: true, once: true },
      );
    }),
  }));
  return watch(handle);
}

/**
 * The console's queue shows the guest named `name` and can accept it: a `queue-guest` row
 * with that name and an enabled Accept button (the row is listed from the guest's room
 * presence; the name and the button come with the call's details from the API).
 */
export async function armQueueRow(page: Page, name: string, timeoutMs: number): Promise<Watch> {
  const handle = await page.evaluateHandle(
    ([wanted, timeout]) => ({
      done: new Promise<number>((resolve, reject) => {
        const observer = new MutationObserver(() => {
          const ready = Array.from(document.querySelectorAll('[data-testid=queue-guest]')).some(
            (row) =>
              row.textContent?.includes(wanted) === true &&
              row.querySelector('button:not([disabled])') !== null,
          );
          if (!ready) return;
          observer.disconnect();
          clearTimeout(timer);
          resolve(performance.timeOrigin + performance.now());
        });
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error(`no queue row for ${wanted} within ${timeout} ms`));
        }, timeout);
        observer.observe(document.body, {
          subtree: true,
          childList: true,
          characterData: true,
          attributes: true,
        });
      }),
    }),
    [name, timeoutMs] as const,
  );
  return watch(handle);
}

/** A poll of the decoded-frame counter every 16 ms, about one display frame. */
const FRAME_POLL_MS = 16;
/** No new frame for this long (or no remote video at all) counts as a stopped picture. */
export const STALL_MS = 300;

/**
 * The remote picture (`remote-video`) moving: the first instant its decoded-frame counter
 * (`getVideoPlaybackQuality().totalVideoFrames`, polled every 16 ms) grows after the picture
 * was stopped. With `wasMoving` false the picture counts as stopped from the start, so this is
 * the first decoded frame of a call. With `wasMoving` true (recovery), the picture must first
 * stop (no `remote-video`, or no new frame for {@link STALL_MS}), then move again; frames still
 * in flight when a fault starts do not count. A new element is a new stream, counted from 0.
 * `sawReconnecting()`: whether the page showed its `reconnecting` notice meanwhile.
 */
export async function armFrames(
  page: Page,
  wasMoving: boolean,
  timeoutMs: number,
): Promise<Watch & { sawReconnecting: () => Promise<boolean> }> {
  const handle = await page.evaluateHandle(
    ([moving, timeout, pollMs, stallMs]) => {
      const state = { reconnecting: false };
      const done = new Promise<number>((resolve, reject) => {
        const startedAt = performance.now();
        const selector = '[data-testid=remote-video]';
        let element = document.querySelector<HTMLVideoElement>(selector);
        let frames = element?.getVideoPlaybackQuality().totalVideoFrames ?? 0;
        let grewAt = startedAt;
        let stopped = !moving;
        const timer = setInterval(() => {
          const now = performance.now();
          const video = document.querySelector<HTMLVideoElement>(selector);
          const count = video?.getVideoPlaybackQuality().totalVideoFrames ?? 0;
          state.reconnecting ||= document.querySelector('[data-testid=reconnecting]') !== null;
          if (video !== element) {
            element = video;
            frames = 0;
            stopped = true;
          }
          if (count > frames && stopped) {
            clearInterval(timer);
            resolve(performance.timeOrigin + now);
            return;
          }
          if (count > frames) grewAt = now;
          else if (now - grewAt >= stallMs) stopped = true;
          frames = count;
          if (now - startedAt > timeout) {
            clearInterval(timer);
            reject(new Error(`remote video did not move within ${timeout} ms`));
          }
        }, pollMs);
      });
      return { done, state };
    },
    [wasMoving, timeoutMs, FRAME_POLL_MS, STALL_MS] as const,
  );
  return {
    at: () => handle.evaluate((armed) => armed.done),
    sawReconnecting: () => handle.evaluate((armed) => armed.state.reconnecting),
  };
}
