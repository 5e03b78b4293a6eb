// A guest behind a network without UDP still gets its call, through the stack's TURN relay
// (coturn) over TCP; with UDP, media goes straight to Janus, not through the relay.
import type { Browser, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { AGENT, agentPage } from '../support/console.ts';
import { expectMovingVideo, walkToWaiting } from '../support/guest.ts';
import {
  blockGuestUdp,
  guestBrowserPage,
  selectedPairs,
  type SelectedPair,
} from '../support/turn.ts';

/**
 * The guest walks to the queue, the agent takes the call, both see the other's moving video;
 * resolves with the selected candidate pairs of the guest's peer connections (publishing and
 * subscribing) and how long from the agent's click until both pictures moved.
 */
async function videoCall(
  guest: Page,
  browser: Browser,
  name: string,
): Promise<{ pairs: SelectedPair[]; connectedMs: number }> {
  // The agent signs in while the guest walks to the queue: the test's minute is for the call.
  const [signedIn, walked] = await Promise.allSettled([
    agentPage(browser, AGENT.cy),
    walkToWaiting(guest, { categoryTestId: 'category-11', callType: 'Video call', name }),
  ]);
  if (signedIn.status === 'rejected') throw signedIn.reason;
  const agent = signedIn.value;
  try {
    if (walked.status === 'rejected') throw walked.reason;
    const accepted = Date.now();
    await agent
      .getByTestId('queue-guest')
      .filter({ hasText: name })
      .getByRole('button', { name: /^Accept/ })
      .click();
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
    const ongoingMs = Date.now() - accepted;
    await expectMovingVideo(guest, 'remote-video');
    const guestSeesMs = Date.now() - accepted;
    await expectMovingVideo(agent, 'remote-video');
    const connectedMs = Date.now() - accepted;
    console.log(
      `${name}: ongoing ${ongoingMs} ms, guest sees ${guestSeesMs} ms, agent sees ${connectedMs} ms`,
    );
    // The guest's peer connections (its camera out, the agent's in), each carrying traffic.
    const pairs = await selectedPairs(guest);
    expect(pairs.length).toBeGreaterThan(0);
    for (const pair of pairs) expect(pair.bytesSent * pair.bytesReceived).toBeGreaterThan(0);
    await agent.getByRole('button', { name: 'End call' }).click();
    await expect(guest.getByTestId('guest-page')).not.toHaveAttribute('data-stage', 'ongoing');
    return { pairs, connectedMs };
  } finally {
    await agent.context().close();
  }
}

test('journey: a guest without UDP gets its video call through TURN over TCP', async ({
  browser,
  playwright,
  launchOptions,
  baseURL,
  userAgent,
}) => {
  test.setTimeout(60_000);
  const firewall = blockGuestUdp();
  const guest = await guestBrowserPage(playwright.chromium, launchOptions, {
    baseURL,
    userAgent,
  }).catch((error: unknown) => {
    firewall.remove();
    throw error;
  });
  try {
    const { pairs, connectedMs } = await videoCall(guest.page, browser, 'Tobias Tcp');
    console.log(
      `no UDP: video both ways ${connectedMs} ms after the claim; ${JSON.stringify(pairs)}`,
    );
    for (const pair of pairs) {
      expect(pair).toMatchObject({
        state: 'succeeded',
        local: { candidateType: 'relay', relayProtocol: 'tcp' },
      });
    }
    // The browser did try UDP (candidates, STUN, TURN over UDP): the rule is what it met.
    expect(firewall.dropped()).toBeGreaterThan(0);
  } finally {
    await guest.browser.close();
    firewall.remove();
  }
});

test('journey: with UDP the guest reaches Janus directly, not through the relay', async ({
  browser,
  playwright,
  launchOptions,
  baseURL,
  userAgent,
}) => {
  test.setTimeout(60_000);
  // The same browser as above, run as the same user, only without the rule.
  const guest = await guestBrowserPage(playwright.chromium, launchOptions, { baseURL, userAgent });
  try {
    const { pairs, connectedMs } = await videoCall(guest.page, browser, 'Ulla Udp');
    console.log(
      `with UDP: video both ways ${connectedMs} ms after the claim; ${JSON.stringify(pairs)}`,
    );
    for (const pair of pairs) {
      expect(pair.state).toBe('succeeded');
      expect(pair.local.candidateType).not.toBe('relay');
      expect(pair.local.protocol).toBe('udp');
    }
  } finally {
    await guest.browser.close();
  }
});
