import { expect, test } from '../support/fixtures.ts';
import { callInProgress } from '../support/console.ts';
import { expectMovingVideo } from '../support/guest.ts';

/** Restarts one of the stack's servers in place (e2e/support/global-setup.ts). */
async function restart(server: 'xmpp' | 'janus') {
  const response = await fetch(`${process.env.FRONTDESK_CONTROL_URL}/restart/${server}`, {
    method: 'POST',
  });
  expect(response.status).toBe(204);
}

test('journey 8: the chat server restarts during a call; the call goes on and the chat comes back', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(180_000);
  const agent = await callInProgress(guest, browser, 'Xena Xmpp');
  try {
    await restart('xmpp');
    // Media does not pass through the chat server: the picture keeps moving meanwhile.
    await expectMovingVideo(guest, 'remote-video');
    await expect(agent.getByTestId('workspace')).toHaveAttribute('data-chat', 'connected', {
      timeout: 30_000,
    });
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');

    // Both sessions came back by themselves: chat works both ways again.
    await guest.getByTestId('chat-toggle').click();
    await expect(async () => {
      await guest.getByLabel('Message').fill('Still there?');
      await guest.getByRole('button', { name: 'Send' }).click();
      await expect(agent.getByTestId('chat-panel').getByText('Still there?').first()).toBeVisible({
        timeout: 3000,
      });
    }).toPass({ timeout: 30_000 });
    const agentChat = agent.getByTestId('chat-panel');
    await agentChat.getByLabel('Message').fill('Yes, still here.');
    await agentChat.getByRole('button', { name: 'Send' }).click();
    await expect(guest.getByTestId('chat-messages')).toContainText('Yes, still here.');
  } finally {
    await agent.context().close();
  }
});

test('journey 8: the media server restarts during a call; both sides show it and the pictures come back', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(180_000);
  const agent = await callInProgress(guest, browser, 'Jules Janus');
  try {
    await restart('janus');
    // Never a frozen screen: either the call recovers or it ends clearly, on both sides.
    await expect(
      guest.getByTestId('reconnecting').or(guest.getByTestId('stage-rating')),
    ).toBeVisible({ timeout: 15_000 });
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing', {
      timeout: 30_000,
    });
    await expect(guest.getByTestId('reconnecting')).toBeHidden({ timeout: 30_000 });
    // Each side re-creates its session and re-publishes on its own schedule (retry backoff).
    await expect(guest.getByTestId('remote-video')).toBeVisible({ timeout: 45_000 });
    await expectMovingVideo(guest, 'remote-video');
    await expectMovingVideo(agent, 'remote-video');
  } finally {
    await agent.context().close();
  }
});
