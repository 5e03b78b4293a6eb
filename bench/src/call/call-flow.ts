// The call-flow figures over the real UI: a guest in Chromium walks company 12's widget to the
// queue, Cy accepts in the console, and both pages time their own events (call/in-page.ts).
// One call at a time: two cores carry the browser's two pages, their encoders and Janus.
import { execFileSync } from 'node:child_process';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  JOIN_DELAY_MS,
  REMOTE_FEED_BASE_DELAY_MS,
  REMOTE_FEED_DELAY_PER_PUBLISHER_MS,
} from '@frontdesk/protocol';
import { AGENT, signIn } from '../../../e2e/support/console.ts';
import { walkToWaiting } from '../../../e2e/support/guest.ts';
import { ms, type Section } from '../report.ts';
import type { BenchStack } from '../stack.ts';
import { summarize, type Summary } from '../stats.ts';
import { newGuestContext } from '../web/browser.ts';
import { armClick, armFrames, armQueueRow, nowMs, STALL_MS } from './in-page.ts';

/** What the guest clicks to join the queue (apps/guest, call-type stage). */
const START_LABEL = 'Start the call';
/** How long one step may take before the run counts it as failed. */
const STEP_TIMEOUT_MS = 60_000;
/** The address scripts/isolated gives veth0, the only interface ICE gathers on. */
const VETH_ADDRESS = '10.200.0.1/24';
/**
 * How long the address stays away in the network-change fault: long enough for ICE to call the
 * path `disconnected`, after which the media layer restarts ICE once 3 s have passed.
 */
const NETWORK_GAP_MS = 5000;

/**
 * Records, in the guest page, the instant of the click on "Start the call". An init script,
 * because walkToWaiting navigates and clicks on its own; a string, as in web/browser.ts.
 */
const RECORD_START_CLICK = `document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button') : null;
  if (button && button.textContent.trim() === ${JSON.stringify(START_LABEL)})
    window.benchStartClickAt = performance.timeOrigin + event.timeStamp;
}, { capture: true });`;

type Call = {
  guest: Page;
  /** "Start the call" clicked → the guest acceptable in the console's queue. */
  queueMs: number;
  /** Accept clicked → first decoded remote frame, on each side. */
  guestFrameMs: number;
  agentFrameMs: number;
};

/** One guest from the welcome form to both sides' first remote frame, each step timed in-page. */
async function startCall(browser: Browser, url: string, agent: Page, name: string) {
  const context = await newGuestContext(browser, url);
  await context.addInitScript(RECORD_START_CLICK);
  const guest = await context.newPage();
  const queued = await armQueueRow(agent, name, STEP_TIMEOUT_MS);
  await walkToWaiting(guest, { categoryTestId: 'category-12', callType: 'Video call', name });
  const startedAt = await guest.evaluate(() => Number(Reflect.get(window, 'benchStartClickAt')));
  const queuedAt = await queued.at();

  const accepted = await armClick(agent);
  const guestFrame = await armFrames(guest, false, STEP_TIMEOUT_MS);
  const agentFrame = await armFrames(agent, false, STEP_TIMEOUT_MS);
  await agent
    .getByTestId('queue-guest')
    .filter({ hasText: name })
    .getByRole('button', { name: /^Accept/ })
    .click();
  const acceptedAt = await accepted.at();
  const call: Call = {
    guest,
    queueMs: queuedAt - startedAt,
    guestFrameMs: (await guestFrame.at()) - acceptedAt,
    agentFrameMs: (await agentFrame.at()) - acceptedAt,
  };
  return call;
}

/** The agent ends the call and goes back to the queue; the guest page goes at its rating. */
async function endCall(agent: Page, guest: Page): Promise<void> {
  await agent.getByRole('button', { name: 'End call' }).click();
  await guest
    .locator('[data-testid=guest-page][data-stage=rating]')
    .waitFor({ timeout: STEP_TIMEOUT_MS });
  await guest.context().close();
  const back = agent.getByRole('button', { name: 'Back to the queue' });
  await back.click();
  await back.waitFor({ state: 'detached' });
}

type Recovery = {
  ms: number;
  guestMs: number;
  agentMs: number;
  /** How long the fault itself took: Janus's restart, or the address's absence. */
  faultMs: number;
  /** Whether the guest page said "reconnecting" meanwhile (the media layer saw the loss). */
  guestSawLoss: boolean;
};

/**
 * Applies `fault` to a moving call and times, from the instant `fault` resolves with, until the
 * remote pictures of both sides stopped and moved again.
 */
async function recover(agent: Page, guest: Page, fault: () => Promise<number>): Promise<Recovery> {
  const guestFrames = await armFrames(guest, true, STEP_TIMEOUT_MS);
  const agentFrames = await armFrames(agent, true, STEP_TIMEOUT_MS);
  const faultStartedAt = nowMs();
  const from = await fault();
  const faultEndedAt = nowMs();
  const guestAt = await guestFrames.at();
  const agentAt = await agentFrames.at();
  return {
    ms: Math.max(guestAt, agentAt) - from,
    guestMs: guestAt - from,
    agentMs: agentAt - from,
    faultMs: faultEndedAt - faultStartedAt,
    guestSawLoss: await guestFrames.sawReconnecting(),
  };
}

/** Janus session loss: Janus stops and starts again; timed from the restart call. */
function janusRestart(stack: BenchStack) {
  return async () => {
    const startedAt = nowMs();
    await stack.restart('janus');
    return startedAt;
  };
}

/** A network change: veth0 loses its address for {@link NETWORK_GAP_MS}; timed from its return. */
async function networkChange(): Promise<number> {
  execFileSync('ip', ['addr', 'del', VETH_ADDRESS, 'dev', 'veth0']);
  await new Promise((resolve) => setTimeout(resolve, NETWORK_GAP_MS));
  execFileSync('ip', ['addr', 'add', VETH_ADDRESS, 'dev', 'veth0']);
  return nowMs();
}

const spread = (s: Summary) => `p50 ${ms(s.p50)}, p95 ${ms(s.p95)}`;
const failed = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Cy signed in at the console in a context of its own, for `use`; the context goes after. */
async function withAgent<T>(
  browser: Browser,
  url: string,
  use: (agent: Page) => Promise<T>,
): Promise<T> {
  const context: BrowserContext = await browser.newContext({ baseURL: url });
  try {
    const agent = await context.newPage();
    await signIn(agent, AGENT.cy);
    return await use(agent);
  } finally {
    await context.close();
  }
}

let guests = 0;
const nextGuest = () => `Bench Guest ${(guests += 1)}`;

/**
 * Guest ready in queue and accept → first frame over `calls` calls of one signed-in agent, each
 * with a fresh guest context, after one warm-up call that is not counted.
 */
export function measureCallSetup(
  browser: Browser,
  url: string,
  calls: number,
  log: (line: string) => void,
): Promise<Section> {
  return withAgent(browser, url, async (agent) => {
    const warmUp = await startCall(browser, url, agent, nextGuest());
    await endCall(agent, warmUp.guest);
    const samples: Omit<Call, 'guest'>[] = [];
    for (let i = 0; i < calls; i += 1) {
      const { guest, ...times } = await startCall(browser, url, agent, nextGuest());
      samples.push(times);
      await endCall(agent, guest);
    }
    log(`  ${samples.length} calls set up`);
    const queue = summarize(samples.map((c) => c.queueMs));
    const guestFrame = summarize(samples.map((c) => c.guestFrameMs));
    const agentFrame = summarize(samples.map((c) => c.agentFrameMs));
    const builtIn = JOIN_DELAY_MS + REMOTE_FEED_BASE_DELAY_MS + REMOTE_FEED_DELAY_PER_PUBLISHER_MS;
    return {
      rows: [
        {
          figure: 'Guest ready in queue',
          measured: spread(queue),
          goal: 'p50 ≤ 1000 ms',
          note: `${calls} calls; "${START_LABEL}" → acceptable row in Cy's queue`,
        },
        {
          figure: 'Accept → first frame: guest',
          measured: spread(guestFrame),
          goal: 'p50 ≤ 500 ms, p95 ≤ 1000 ms',
          note: `${calls} calls; includes spec §9 delays ≥ ${ms(builtIn)} (join ${ms(JOIN_DELAY_MS)}, feed ${ms(REMOTE_FEED_BASE_DELAY_MS)} + ${ms(REMOTE_FEED_DELAY_PER_PUBLISHER_MS)}/publisher)`,
        },
        {
          figure: 'Accept → first frame: agent',
          measured: spread(agentFrame),
          goal: 'p50 ≤ 500 ms, p95 ≤ 1000 ms',
          note: `${calls} calls; same spec §9 delays`,
        },
      ],
      data: {
        clock: 'in-page: performance.timeOrigin + performance.now(), click event.timeStamp',
        specDelaysMs: {
          join: JOIN_DELAY_MS,
          remoteFeedBase: REMOTE_FEED_BASE_DELAY_MS,
          remoteFeedPerPublisher: REMOTE_FEED_DELAY_PER_PUBLISHER_MS,
        },
        queue,
        guestFrame,
        agentFrame,
        samples,
      },
    };
  });
}

/**
 * Recovery from Janus session loss or from a network change over `runs` calls. Each run has a
 * signed-in agent of its own, so a run that fails (recorded with its error) leaves nothing
 * behind for the next.
 */
export async function measureRecovery(
  browser: Browser,
  stack: BenchStack,
  kind: 'janus' | 'network',
  runs: number,
): Promise<Section> {
  const fault = kind === 'janus' ? janusRestart(stack) : networkChange;
  const samples: Recovery[] = [];
  const errors: string[] = [];
  for (let i = 0; i < runs; i += 1) {
    try {
      samples.push(
        await withAgent(browser, stack.url, async (agent) => {
          const { guest } = await startCall(browser, stack.url, agent, nextGuest());
          try {
            const recovered = await recover(agent, guest, fault);
            await endCall(agent, guest);
            return recovered;
          } finally {
            await guest.context().close();
          }
        }),
      );
    } catch (error) {
      errors.push(failed(error));
    }
  }
  const recovery = summarize(samples.map((r) => r.ms));
  const faultMs = summarize(samples.map((r) => r.faultMs));
  const seen = `guest showed "reconnecting" in ${samples.filter((r) => r.guestSawLoss).length} of ${samples.length}`;
  const lost = errors.length > 0 ? `; ${errors.length} runs failed` : '';
  return {
    rows: [
      kind === 'janus'
        ? {
            figure: 'Recovery: Janus restart → both moving',
            measured: `p50 ${ms(recovery.p50)}`,
            goal: 'p50 ≤ 3000 ms',
            note: `${samples.length} runs, from the restart call (restart itself p50 ${ms(faultMs.p50)}); ${seen}${lost}`,
          }
        : {
            figure: 'Recovery: network change → both moving',
            measured: `p50 ${ms(recovery.p50)}`,
            goal: 'p50 ≤ 3000 ms',
            note: `${samples.length} runs, from the address's return after ${ms(NETWORK_GAP_MS)} away; ${seen}${lost}`,
          },
    ],
    data: { stallMs: STALL_MS, networkGapMs: NETWORK_GAP_MS, recovery, samples, errors },
  };
}
