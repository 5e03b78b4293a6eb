// Issue 23: a p2p call whose guest has no UDP. The two browsers still reach each other, through
// the stack's TURN relay over TCP, with the credentials POST /api/calls/:callId/ice hands out;
// the guest's quality report says so.
import { expect, test } from '../support/fixtures.ts';
import { queryRows } from '../support/db.ts';
import { acceptFirstGuest, expectMovingVideo } from '../support/guest.ts';
import {
  createP2pCompany,
  expectDirectPair,
  liveCallId,
  waitForVideoCall,
  watchedAgentPage,
} from '../support/p2p.ts';
import { blockGuestUdp, guestBrowserPage } from '../support/turn.ts';

test('journey: a p2p guest without UDP reaches the agent’s browser through TURN over TCP', async ({
  browser,
  playwright,
  launchOptions,
  baseURL,
  userAgent,
}) => {
  test.setTimeout(120_000);
  const company = await createP2pCompany();
  const agent = await watchedAgentPage(browser, company.agents[0]);
  const firewall = blockGuestUdp();
  try {
    const guest = await guestBrowserPage(playwright.chromium, launchOptions, {
      baseURL,
      userAgent,
    });
    try {
      await waitForVideoCall(guest.page, company.id);
      await acceptFirstGuest(guest.page, agent.page);
      await expectMovingVideo(guest.page, 'remote-video');
      await expectMovingVideo(agent.page, 'remote-video');
      const pair = await expectDirectPair(guest.page, agent.page);
      console.log(`p2p without UDP: ${JSON.stringify(pair)}`);
      expect(pair.local).toMatchObject({ candidateType: 'relay', relayProtocol: 'tcp' });
      // The browser did try UDP (candidates, STUN, TURN over UDP): the rule is what it met.
      expect(firewall.dropped()).toBeGreaterThan(0);
      const callId = await liveCallId(company.id);

      await agent.page.getByRole('button', { name: 'End call' }).click();
      await expect(guest.page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'rating');
      // The guest's side reports its media as the call ends for it: relayed, over TCP.
      await expect
        .poll(() =>
          queryRows<{ local_candidate_type: string | null; relay_protocol: string | null }>(
            `select q.local_candidate_type, q.relay_protocol from call_quality q
               join call_reports r on r.id = q.call_report_id
              where r.call_id = $1 and q.role = 'guest'`,
            [callId],
          ),
        )
        .toEqual([{ local_candidate_type: 'relay', relay_protocol: 'tcp' }]);
      const [report] = await queryRows<{ call_method: string }>(
        'select call_method from call_reports where call_id = $1',
        [callId],
      );
      expect(report?.call_method).toBe('p2p');
    } finally {
      await guest.browser.close();
    }
  } finally {
    firewall.remove();
    await agent.page.context().close();
  }
});
