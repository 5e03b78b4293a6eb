// Accept → first frame's floor (issue 22): janus.js itself, in two pages of the benchmark's
// Chromium (its fake camera), publishing into a call's Janus room and subscribing to each other,
// timed until each page decodes its first remote frame. No app code: the least the browser, the
// camera and Janus ask for what the apps do after an accept, before spec §9's delays.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { VIDEOROOM_PLUGIN } from '@frontdesk/media/server';
import { repoRoot } from '../paths.ts';

/** janus.js as packages/media depends on it, with the WebRTC adapter it expects as a global. */
function janusScripts(): { adapter: string; janus: string } {
  const janusEntry = createRequire(join(repoRoot, 'packages/media/package.json')).resolve(
    'janus-gateway',
  );
  const adapterEntry = createRequire(janusEntry).resolve('webrtc-adapter');
  return {
    // The UMD build beside the package's entry: it sets `window.adapter`.
    adapter: readFileSync(join(dirname(adapterEntry), '../out/adapter.js'), 'utf8'),
    // An ES module whose one export is Janus: the page keeps it as a global.
    janus: `${readFileSync(janusEntry, 'utf8')}\nwindow.Janus = Janus;`,
  };
}

/** One side's way into the room: the API's room access and Janus token, as the apps get them. */
export type FloorSide = {
  janusToken: string;
  room: string;
  pin: string;
  token: string;
  /** The room's, as the apps pass them: without them janus.js would ask a public STUN server. */
  iceServers: readonly unknown[];
};

/** How long one side may take before the sample counts as failed. */
const SIDE_TIMEOUT_MS = 30_000;

export type JanusFloor = {
  /** Both sides at once; each side's instants from the earlier side's start, in ms. */
  run: (server: string, sides: readonly [FloorSide, FloorSide]) => Promise<[number, number]>;
  close: () => Promise<void>;
};

/** Two pages on the API's origin (a secure context for the camera), janus.js loaded in each. */
export async function openJanusFloor(browser: Browser, url: string): Promise<JanusFloor> {
  const scripts = janusScripts();
  // The scripts go into a page the API serves: one Playwright made up would count as a public
  // address, which Chromium's local network checks forbid to open the loopback gate. Its CSP
  // (no injected scripts) is bypassed, which changes nothing of the media path.
  const context: BrowserContext = await browser.newContext({ bypassCSP: true });
  const origin = `${url}/api/config`;
  const pages: Page[] = [];
  for (let i = 0; i < 2; i += 1) {
    const page = await context.newPage();
    await page.goto(origin);
    await page.addScriptTag({ content: scripts.adapter });
    await page.addScriptTag({ type: 'module', content: scripts.janus });
    await page.waitForFunction(() => 'Janus' in window);
    pages.push(page);
  }
  const side = (page: Page, server: string, entry: FloorSide, display: string) =>
    page.evaluate(
      // Methods and inline arrows only: tsx names `const f = () => …` with a helper the page
      // does not have (see web/browser.ts).
      ({ server, entry, display, plugin, timeoutMs }) => {
        const Janus = Reflect.get(window, 'Janus');
        const startedAt = performance.timeOrigin + performance.now();
        return new Promise<{ startedAt: number; frameAt: number }>((resolve, reject) => {
          const video = document.createElement('video');
          video.muted = true;
          document.body.append(video);
          const state = { privateId: 0, subscribed: false };
          const timer = setTimeout(() => reject(new Error('no remote frame in time')), timeoutMs);
          const flow = {
            fail(error: unknown) {
              clearTimeout(timer);
              reject(new Error(`janus.js: ${JSON.stringify(error)}`));
            },
            /** Attaches a videoroom handle and joins the room with `join`'s fields. */
            attach(
              session: JanusApi,
              join: Record<string, unknown>,
              events: {
                onmessage(
                  handle: JanusHandleApi,
                  message: Record<string, unknown>,
                  jsep: unknown,
                ): void;
                onremotetrack?(track: MediaStreamTrack, on: boolean): void;
              },
            ) {
              let handle: JanusHandleApi;
              session.attach({
                plugin,
                success(attached: JanusHandleApi) {
                  handle = attached;
                  handle.send({
                    message: {
                      request: 'join',
                      room: entry.room,
                      pin: entry.pin.toLowerCase(),
                      ...join,
                    },
                  });
                },
                error: flow.fail,
                onmessage(message: Record<string, unknown>, jsep?: unknown) {
                  events.onmessage(handle, message, jsep);
                },
                onremotetrack(track: MediaStreamTrack, _mid: string, on: boolean) {
                  events.onremotetrack?.(track, on);
                },
              });
            },
            publish(session: JanusApi) {
              flow.attach(
                session,
                { ptype: 'publisher', token: entry.token, display },
                {
                  onmessage(handle, message, jsep) {
                    if (jsep) handle.handleRemoteJsep({ jsep });
                    if (message.videoroom === 'joined') {
                      state.privateId = Number(message.private_id);
                      handle.createOffer({
                        tracks: [
                          { type: 'audio', capture: true, recv: false },
                          { type: 'video', capture: true, recv: false },
                        ],
                        success(offer: unknown) {
                          handle.send({
                            message: { request: 'configure', audio: true, video: true },
                            jsep: offer,
                          });
                        },
                        error: flow.fail,
                      });
                    }
                    const publishers = message.publishers;
                    if (Array.isArray(publishers) && publishers.length > 0 && !state.subscribed) {
                      state.subscribed = true;
                      flow.subscribe(session, String((publishers[0] as { id: unknown }).id));
                    }
                  },
                },
              );
            },
            subscribe(session: JanusApi, feed: string) {
              flow.attach(
                session,
                { ptype: 'subscriber', streams: [{ feed }], private_id: state.privateId },
                {
                  onmessage(handle, _message, jsep) {
                    if (!jsep) return;
                    handle.createAnswer({
                      jsep,
                      // Audio and video are taken as offered, receive-only.
                      tracks: [{ type: 'data' }],
                      success(answer: unknown) {
                        handle.send({ message: { request: 'start' }, jsep: answer });
                      },
                      error: flow.fail,
                    });
                  },
                  onremotetrack(track, on) {
                    if (!on || track.kind !== 'video') return;
                    video.srcObject = new MediaStream([track]);
                    void video.play().catch(() => undefined);
                    // The same 16 ms poll of the decoded-frame counter as the apps' figure.
                    const poll = setInterval(() => {
                      if (video.getVideoPlaybackQuality().totalVideoFrames === 0) return;
                      clearInterval(poll);
                      clearTimeout(timer);
                      resolve({ startedAt, frameAt: performance.timeOrigin + performance.now() });
                      video.remove();
                    }, 16);
                  },
                },
              );
            },
          };
          Janus.init({
            debug: false,
            callback() {
              const session: JanusApi = new Janus({
                server,
                token: entry.janusToken,
                iceServers: entry.iceServers,
                success() {
                  flow.publish(session);
                },
                error: flow.fail,
              });
              // Destroyed once both sides have their frame: each publishes for the other.
              Reflect.set(window, 'benchFloorSession', session);
            },
          });
        });
      },
      { server, entry, display, plugin: VIDEOROOM_PLUGIN, timeoutMs: SIDE_TIMEOUT_MS },
    );
  return {
    run: async (server, [guest, agent]) => {
      try {
        const [a, b] = await Promise.all([
          side(pages[0] as Page, server, guest, 'floor guest'),
          side(pages[1] as Page, server, agent, 'floor agent'),
        ]);
        const from = Math.min(a.startedAt, b.startedAt);
        return [a.frameAt - from, b.frameAt - from];
      } finally {
        for (const page of pages) {
          await page.evaluate(() =>
            (Reflect.get(window, 'benchFloorSession') as JanusApi | undefined)?.destroy({
              cleanupHandles: true,
            }),
          );
        }
      }
    },
    close: () => context.close(),
  };
}

/** The parts of janus.js the floor uses (the package's own types are not strict-clean). */
type JanusApi = {
  attach: (options: Record<string, unknown>) => void;
  destroy: (options: { cleanupHandles: boolean }) => void;
};
type JanusHandleApi = {
  send: (options: { message: Record<string, unknown>; jsep?: unknown }) => void;
  handleRemoteJsep: (options: { jsep: unknown }) => void;
  createOffer: (options: Record<string, unknown>) => void;
  createAnswer: (options: Record<string, unknown>) => void;
};
