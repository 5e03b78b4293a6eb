// Issue 23: a company that chose p2p calls. The guest's and the agent's browsers send each other
// their media over one peer connection, signalled over their chat sessions; Janus never sees the
// call, through its chat, a hold and a transfer to a colleague.
import { expect, test } from '../support/fixtures.ts';
import { transferCall } from '../support/console.ts';
import { queryRows } from '../support/db.ts';
import { acceptFirstGuest, expectMovingVideo } from '../support/guest.ts';
import {
  createP2pCompany,
  expectDirectPair,
  expectNoMediaServerSocket,
  janusHasRoom,
  liveCallId,
  waitForVideoCall,
  watchedAgentPage,
  webSocketsOf,
} from '../support/p2p.ts';
import { recordPeerConnections } from '../support/turn.ts';

test('journey: a p2p video call with chat, hold and a transfer never touches the media server', async ({
  context,
  browser,
}) => {
  test.setTimeout(240_000);
  const company = await createP2pCompany();
  const [pia, per] = company.agents;
  await recordPeerConnections(context);
  const guest = await context.newPage();
  const guestSockets = webSocketsOf(guest);
  const first = await watchedAgentPage(browser, pia);
  const second = await watchedAgentPage(browser, per);
  try {
    await waitForVideoCall(guest, company.id);
    await acceptFirstGuest(guest, first.page);
    await expectMovingVideo(guest, 'remote-video');
    await expectMovingVideo(first.page, 'remote-video');
    await expectDirectPair(guest, first.page);
    const firstCall = await liveCallId(company.id);
    expect(await janusHasRoom(firstCall)).toBe(false);

    // Chat both ways: it still travels over the call's chat room.
    const agentChat = first.page.getByTestId('chat-panel');
    await agentChat.getByLabel('Message').fill('Hello from Pia');
    await agentChat.getByRole('button', { name: 'Send' }).click();
    await guest.getByTestId('chat-toggle').click();
    await expect(guest.getByTestId('chat-messages')).toContainText('Hello from Pia');
    await guest.getByLabel('Message').fill('Hello from the guest');
    await guest.getByRole('button', { name: 'Send' }).click();
    await expect(
      agentChat.getByTestId('chat-message').filter({ hasText: 'Hello from the guest' }),
    ).toBeVisible();

    // Hold and resume: the guest sees the hold page, then the agent's moving picture again.
    await first.page.getByRole('button', { name: 'Hold' }).click();
    await expect(guest.getByTestId('hold-page')).toBeVisible();
    await first.page.getByRole('button', { name: 'Resume' }).click();
    await expect(guest.getByTestId('hold-page')).toBeHidden();
    await expectMovingVideo(guest, 'remote-video');

    // Pia hands the guest to Per by name: a new peer connection, between the guest and Per.
    await transferCall(first.page, `agent:staff-${per.id}`);
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'waiting');
    await acceptFirstGuest(guest, second.page);
    await expectMovingVideo(guest, 'remote-video');
    await expectMovingVideo(second.page, 'remote-video');
    await expectDirectPair(guest, second.page);
    const secondCall = await liveCallId(company.id);
    expect(secondCall).not.toBe(firstCall);
    expect(await janusHasRoom(secondCall)).toBe(false);

    await second.page.getByRole('button', { name: 'End call' }).click();
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'rating');

    for (const sockets of [guestSockets, first.sockets, second.sockets]) {
      await expectNoMediaServerSocket(sockets);
    }
    // Both legs of the one conversation were p2p calls, and the API never made them a room.
    const legs = await queryRows<{
      call_id: string;
      previous_call_id: string | null;
      call_method: string;
      room_pin: string | null;
      room_secret: string | null;
      media_server_id: number | null;
      answered_at: Date | null;
    }>(
      `select call_id, previous_call_id, call_method, room_pin, room_secret, media_server_id, answered_at
         from call_reports where company_id = $1 order by id`,
      [company.id],
    );
    expect(legs.map((leg) => leg.call_id)).toEqual([firstCall, secondCall]);
    expect(legs[1]?.previous_call_id).toBe(firstCall);
    for (const leg of legs) {
      expect(leg).toMatchObject({
        call_method: 'p2p',
        room_pin: null,
        room_secret: null,
        media_server_id: null,
      });
      expect(leg.answered_at).toBeInstanceOf(Date);
    }
  } finally {
    await first.page.context().close();
    await second.page.context().close();
  }
});
