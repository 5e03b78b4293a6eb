// Accept → first frame's floor in a p2p call (issue 23): two bare RTCPeerConnections in one page
// of the benchmark's Chromium (its fake camera), each capturing audio and video as a side of the
// call does, the agent's offering and the guest's answering, their descriptions and trickled
// candidates handed over directly in the page: no chat server, no API, no STUN or TURN (host
// candidates only). Timed until each side decodes its first remote frame. No app code: the least
// the browser, the camera and the network ask for what the apps do after an accept.
import type { Browser, BrowserContext } from 'playwright-core';

/** How long one sample may take before it counts as failed. */
const SAMPLE_TIMEOUT_MS = 30_000;

export type P2pFloor = {
  /** One call's set-up; each side's first decoded remote frame, in ms from the start. */
  run: () => Promise<{ guestMs: number; agentMs: number }>;
  close: () => Promise<void>;
};

/** One page on the API's origin: a secure context for the camera, as the apps' pages are. */
export async function openP2pFloor(browser: Browser, url: string): Promise<P2pFloor> {
  const context: BrowserContext = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${url}/api/config`);
  const run = () =>
    page.evaluate(
      // Methods and inline arrows only: tsx names `const f = () => …` with a helper the page
      // does not have (see web/browser.ts).
      async ({ timeoutMs }) => {
        const startedAt = performance.now();
        const sides = await Promise.all(
          [0, 1].map(async () => {
            const stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: true });
            const pc = new RTCPeerConnection({ iceServers: [] });
            for (const track of stream.getTracks()) pc.addTrack(track, stream);
            // Candidates that come before the remote description wait for it, as on a signal.
            return { stream, pc, early: [] as RTCIceCandidateInit[] };
          }),
        );
        const [agent, guest] = sides as [(typeof sides)[0], (typeof sides)[0]];
        const timers: ReturnType<typeof setInterval>[] = [];
        const failAfter = new Promise<never>((_resolve, reject) => {
          timers.push(setTimeout(() => reject(new Error('no remote frame in time')), timeoutMs));
        });
        const frames = [guest, agent].map(
          (side) =>
            new Promise<number>((resolve) => {
              side.pc.addEventListener('track', ({ track, streams }) => {
                if (track.kind !== 'video') return;
                const video = document.createElement('video');
                video.muted = true;
                video.srcObject = streams[0] ?? new MediaStream([track]);
                document.body.append(video);
                void video.play().catch(() => undefined);
                // The same 16 ms poll of the decoded-frame counter as the apps' figure.
                const poll = setInterval(() => {
                  if (video.getVideoPlaybackQuality().totalVideoFrames === 0) return;
                  clearInterval(poll);
                  resolve(performance.now() - startedAt);
                  video.remove();
                }, 16);
                timers.push(poll);
              });
            }),
        ) as [Promise<number>, Promise<number>];
        for (const [from, to] of [
          [agent, guest],
          [guest, agent],
        ] as const) {
          from.pc.addEventListener('icecandidate', ({ candidate }) => {
            if (!candidate) return;
            if (to.pc.remoteDescription) void to.pc.addIceCandidate(candidate);
            else to.early.push(candidate.toJSON());
          });
        }
        const signal = {
          /** Hands `from`'s local description to `to`, then the candidates that came first. */
          async describe(from: typeof agent, to: typeof agent): Promise<void> {
            await to.pc.setRemoteDescription(from.pc.localDescription as RTCSessionDescription);
            for (const candidate of to.early.splice(0)) await to.pc.addIceCandidate(candidate);
          },
        };
        try {
          await agent.pc.setLocalDescription(await agent.pc.createOffer());
          await signal.describe(agent, guest);
          await guest.pc.setLocalDescription(await guest.pc.createAnswer());
          await signal.describe(guest, agent);
          const [guestMs, agentMs] = await Promise.race([Promise.all(frames), failAfter]);
          return { guestMs, agentMs };
        } finally {
          for (const timer of timers) clearInterval(timer);
          for (const side of sides) {
            side.pc.close();
            for (const track of side.stream.getTracks()) track.stop();
          }
        }
      },
      { timeoutMs: SAMPLE_TIMEOUT_MS },
    );
  return { run, close: () => context.close() };
}
