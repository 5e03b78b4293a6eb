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
import { SEEDED_COMPANY } from '@frontdesk/api/seed';
import { AGENT, signIn } from '../../../e2e/support/console.ts';
import { walkToWaiting } from '../../../e2e/support/guest.ts';
import { ms, type Section } from '../report.ts';
import type { BenchStack } from '../stack.ts';
import {
  againstFloor,
  formatSpread,
  percentile,
  spread,
  summarize,
  type Spread,
} from '../stats.ts';
import { newGuestContext } from '../web/browser.ts';
import { openFloors, type QueueFloor } from './floors.ts';
import { armClick, armFrames, armQueueRow, nowMs, STALL_MS } from './in-page.ts';

/** Where calls are made: the guest's company and the category it picks, and the agent. */
export type CallSite = { companyId: number; categoryId: number; agentEmail: string };

/** The media-server figures' calls: company 12's Billing, answered by Cy. */
export const COMPANY_12_SITE: CallSite = {
  companyId: SEEDED_COMPANY.aroundTheClock,
  categoryId: 12,
  agentEmail: AGENT.cy,
};

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

/** A call's instants (epoch ms, the pages' clock) from which its figures are taken. */
export type CallInstants = {
  clicked: number;
  ready: number;
  accepted: number;
  guestFrame: number;
  agentFrame: number;
};

/** One call's figures, in ms. */
export type CallTimes = {
  instants: CallInstants;
  /** "Start the call" clicked → the guest acceptable in the console's queue. */
  queueMs: number;
  /** Accept clicked → first decoded remote frame, on each side. */
  guestFrameMs: number;
  agentFrameMs: number;
};

type Call = CallTimes & { guest: Page };

/**
 * One guest from the welcome form to both sides' first remote frame, each step timed in-page.
 * `watch` is handed the guest's page before it opens (call/trace-setup.ts records its network).
 */
export async function startCall(
  browser: Browser,
  url: string,
  agent: Page,
  site: CallSite,
  name: string,
  watch?: (guest: Page) => Promise<void>,
): Promise<Call> {
  const context = await newGuestContext(browser, url);
  await context.addInitScript(RECORD_START_CLICK);
  const guest = await context.newPage();
  await watch?.(guest);
  const queued = await armQueueRow(agent, name, STEP_TIMEOUT_MS);
  await walkToWaiting(guest, {
    company: site.companyId,
    categoryTestId: `category-${site.categoryId}`,
    callType: 'Video call',
    name,
  });
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
  const instants: CallInstants = {
    clicked: startedAt,
    ready: queuedAt,
    accepted: acceptedAt,
    guestFrame: await guestFrame.at(),
    agentFrame: await agentFrame.at(),
  };
  return {
    guest,
    instants,
    queueMs: queuedAt - startedAt,
    guestFrameMs: instants.guestFrame - acceptedAt,
    agentFrameMs: instants.agentFrame - acceptedAt,
  };
}

/** The agent ends the call and goes back to the queue; the guest page goes at its rating. */
export async function endCall(agent: Page, guest: Page): Promise<void> {
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

const failed = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The agent signed in at the console in a context of its own, for `use`; the context goes after. */
export async function withAgent<T>(
  browser: Browser,
  url: string,
  agentEmail: string,
  use: (agent: Page) => Promise<T>,
): Promise<T> {
  const context: BrowserContext = await browser.newContext({ baseURL: url });
  try {
    const agent = await context.newPage();
    await signIn(agent, agentEmail).catch(async (error: unknown) => {
      // signIn's checks wait 5 s (expect's default outside the test runner); on a loaded box the
      // console's chat can take longer to connect, which is no failure of the benchmark's.
      const connected = agent.locator('[data-testid=workspace][data-chat=connected]');
      await connected.waitFor({ timeout: STEP_TIMEOUT_MS }).catch(() => {
        throw error;
      });
      await agent
        .getByText('Joining your team…')
        .waitFor({ state: 'hidden', timeout: STEP_TIMEOUT_MS });
    });
    return await use(agent);
  } finally {
    await context.close();
  }
}

let guests = 0;
const nextGuest = () => `Bench Guest ${(guests += 1)}`;

/**
 * `calls` calls at `site`, each with a fresh guest context and followed by one sample of its
 * floor, after one warm-up call and floor sample that are not counted.
 */
export async function timeCalls<F>(
  browser: Browser,
  url: string,
  agent: Page,
  site: CallSite,
  calls: number,
  floor: () => Promise<F>,
): Promise<(CallTimes & F)[]> {
  const warmUp = await startCall(browser, url, agent, site, nextGuest());
  await endCall(agent, warmUp.guest);
  await floor();
  const samples: (CallTimes & F)[] = [];
  for (let i = 0; i < calls; i += 1) {
    const { guest, ...times } = await startCall(browser, url, agent, site, nextGuest());
    await endCall(agent, guest);
    samples.push({ ...times, ...(await floor()) });
  }
  return samples;
}

/**
 * In a 1:1 call each side subscribes knowing one other publisher, so spec §9's delays before its
 * first frame are the join delay and the remote-feed delay for one publisher.
 */
const SPEC_DELAYS_MS =
  JOIN_DELAY_MS + REMOTE_FEED_BASE_DELAY_MS + REMOTE_FEED_DELAY_PER_PUBLISHER_MS * 1;

/**
 * Guest ready in queue and accept → first frame over `calls` calls of one signed-in agent, each
 * with a fresh guest context, after one warm-up call that is not counted; each call followed by
 * one sample of their floors (call/floors.ts). The spread is over `batches` stretches of the run.
 */
export function measureCallSetup(
  browser: Browser,
  stack: BenchStack,
  calls: number,
  batches: number,
  log: (line: string) => void,
): Promise<Section> {
  return withAgent(browser, stack.url, COMPANY_12_SITE.agentEmail, async (agent) => {
    const floors = await openFloors(browser, stack);
    try {
      const samples = await timeCalls(browser, stack.url, agent, COMPANY_12_SITE, calls, () =>
        floors.sample(),
      );
      log(`  ${samples.length} calls set up, each beside its floors`);
      const of = (values: number[]) => spread(values, batches);
      const queue = of(samples.map((c) => c.queueMs));
      const queueFloor = of(samples.map((c) => c.queue.ms));
      const guestFrame = of(samples.map((c) => c.guestFrameMs));
      const agentFrame = of(samples.map((c) => c.agentFrameMs));
      const guestMedia = of(samples.map((c) => c.media.guestMs));
      const agentMedia = of(samples.map((c) => c.media.agentMs));
      const withDelays = (values: number[]) => of(values.map((value) => value + SPEC_DELAYS_MS));
      const guestFloor = withDelays(samples.map((c) => c.media.guestMs));
      const agentFloor = withDelays(samples.map((c) => c.media.agentMs));
      const part = (pick: (floor: QueueFloor) => number) =>
        ms(
          percentile(
            samples.map((c) => pick(c.queue)),
            50,
          ),
        );
      const frameNote = (raw: Spread) =>
        `${calls} calls; floor: raw janus.js publisher → subscriber in the call's Janus room p50 ${ms(raw.p50)} + spec §9 delays ${ms(SPEC_DELAYS_MS)} (join ${ms(JOIN_DELAY_MS)}, feed ${ms(REMOTE_FEED_BASE_DELAY_MS)} + ${ms(REMOTE_FEED_DELAY_PER_PUBLISHER_MS)} for 1 publisher)`;
      return {
        rows: [
          {
            figure: 'Guest ready in queue',
            measured: formatSpread(queue),
            floor: againstFloor(queue, queueFloor),
            goal: 'p50 ≤ 350 ms',
            note: `${calls} calls; "${START_LABEL}" → acceptable row in Cy's queue; floor: call-report/add ${part((f) => f.restMs)} + XMPP session ${part((f) => f.xmppOpenMs)} + room join ${part((f) => f.joinMs)} (p50s), bare clients`,
          },
          {
            figure: 'Accept → first frame: guest',
            measured: formatSpread(guestFrame),
            floor: againstFloor(guestFrame, guestFloor),
            goal: `p50 ≤ spec delays + 150 ms = ${ms(SPEC_DELAYS_MS + 150)}`,
            note: frameNote(guestMedia),
          },
          {
            figure: 'Accept → first frame: agent',
            measured: formatSpread(agentFrame),
            floor: againstFloor(agentFrame, agentFloor),
            goal: `p50 ≤ spec delays + 150 ms = ${ms(SPEC_DELAYS_MS + 150)}`,
            note: frameNote(agentMedia),
          },
        ],
        data: {
          clock: 'in-page: performance.timeOrigin + performance.now(), click event.timeStamp',
          specDelaysMs: {
            join: JOIN_DELAY_MS,
            remoteFeedBase: REMOTE_FEED_BASE_DELAY_MS,
            remoteFeedPerPublisher: REMOTE_FEED_DELAY_PER_PUBLISHER_MS,
            total: SPEC_DELAYS_MS,
          },
          queue,
          queueFloor,
          guestFrame,
          agentFrame,
          guestMedia,
          agentMedia,
          guestFloor,
          agentFloor,
          samples,
        },
      };
    } finally {
      await floors.close();
    }
  });
}

/**
 * Recovery from Janus session loss or from a network change over `runs` calls, reported as p50
 * and p95 with the spread over `batches` stretches of the run. Each run has a signed-in agent of
 * its own, so a run that fails (recorded with its error) leaves nothing behind for the next.
 */
export async function measureRecovery(
  browser: Browser,
  stack: BenchStack,
  kind: 'janus' | 'network',
  runs: number,
  batches: number,
): Promise<Section> {
  const fault = kind === 'janus' ? janusRestart(stack) : networkChange;
  const samples: Recovery[] = [];
  const errors: string[] = [];
  for (let i = 0; i < runs; i += 1) {
    try {
      samples.push(
        await withAgent(browser, stack.url, COMPANY_12_SITE.agentEmail, async (agent) => {
          const { guest } = await startCall(
            browser,
            stack.url,
            agent,
            COMPANY_12_SITE,
            nextGuest(),
          );
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
  const recovery = spread(
    samples.map((r) => r.ms),
    batches,
  );
  const faultMs = summarize(samples.map((r) => r.faultMs));
  const seen = `guest showed "reconnecting" in ${samples.filter((r) => r.guestSawLoss).length} of ${samples.length}`;
  const lost =
    errors.length > 0
      ? `; ${errors.length} runs failed, the first: ${errors[0]?.split('\n')[0]}`
      : '';
  const goal = 'p50 ≤ 1000 ms, p95 ≤ 2000 ms';
  return {
    rows: [
      kind === 'janus'
        ? {
            figure: 'Recovery: Janus restart → both moving',
            measured: formatSpread(recovery),
            goal,
            note: `${samples.length} runs, from the restart call (restart itself p50 ${ms(faultMs.p50)}); ${seen}${lost}`,
          }
        : {
            figure: 'Recovery: network change → both moving',
            measured: formatSpread(recovery),
            goal,
            note: `${samples.length} runs, from the address's return after ${ms(NETWORK_GAP_MS)} away; ${seen}${lost}`,
          },
    ],
    data: { stallMs: STALL_MS, networkGapMs: NETWORK_GAP_MS, recovery, samples, errors },
  };
}
