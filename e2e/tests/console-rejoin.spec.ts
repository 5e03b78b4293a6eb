import { resolve } from 'node:path';
import { expect, test } from '../support/fixtures.ts';
import { callInProgress } from '../support/console.ts';
import { expectMovingVideo } from '../support/guest.ts';

const docsImages = resolve(import.meta.dirname, '../../docs/images');

/** How long since `start`, for the journey's report. */
const since = (start: number) => `${Date.now() - start} ms`;

test('console: an agent who reloads mid-call takes the call up again; it goes on both sides with video and chat', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(180_000);
  const agent = await callInProgress(guest, browser, 'Rhea Rejoin');
  try {
    await expectMovingVideo(agent, 'remote-video');
    await expect(agent).toHaveURL(/\/console\/calls\/[^/]+$/);
    const callUrl = agent.url();
    // A few words each way before the reload.
    const agentChat = agent.getByTestId('chat-panel');
    await guest.getByTestId('chat-toggle').click();
    const guestChat = guest.getByTestId('chat-messages');
    await agentChat.getByLabel('Message').fill('Before my reload');
    await agentChat.getByRole('button', { name: 'Send' }).click();
    await expect(guestChat.getByText('Before my reload')).toBeVisible();

    const start = Date.now();
    await agent.reload();
    // The guest is told the agent's connection dropped — not sent to the rating page.
    await expect(guest.getByTestId('reconnecting')).toHaveAttribute('data-reconnecting', 'agent');
    await expect(guest.getByTestId('reconnecting')).toHaveText(
      'The agent’s connection dropped. Reconnecting…',
    );
    test
      .info()
      .annotations.push({ type: 'guest saw reconnecting after', description: since(start) });
    await guest.screenshot({ path: `${docsImages}/guest-agent-reconnecting.png` });

    // The console, still signed in on the call's address, takes the call up again: its call
    // screen, the guest's picture, and the guest sees the agent again — within 5 s of the reload.
    await expect(agent.getByTestId('call-screen')).toBeVisible({ timeout: 5000 });
    await expect(agent.getByTestId('remote-video')).toBeVisible({
      timeout: Math.max(1, 5000 - (Date.now() - start)),
    });
    await expect(guest.getByTestId('reconnecting')).toBeHidden({
      timeout: Math.max(1, 5000 - (Date.now() - start)),
    });
    test.info().annotations.push({ type: 'call back both ways after', description: since(start) });
    expect(agent.url()).toBe(callUrl);
    await expectMovingVideo(agent, 'remote-video');
    await expectMovingVideo(guest, 'remote-video');
    await expect(agent.getByTestId('call-screen')).toHaveAttribute('data-phase', 'active');
    await expect(agent.getByTestId('guest-link')).toBeHidden();
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
    await expect(agent.getByTestId('call-rejoin')).toHaveCount(0);

    // The call's link opened in another tab of the agent's: the call is open in this one, so the
    // other says so and shows the queue; this tab keeps the call.
    const other = await agent.context().newPage();
    await other.goto(callUrl);
    await expect(other.getByTestId('call-rejoin')).toHaveText(
      /Your call is open in another tab of the console\./,
    );
    await expect(other).toHaveURL(/\/console\/queue$/);
    await expect(other.getByTestId('call-screen')).toHaveCount(0);
    await other.close();
    await expect(agent.getByTestId('call-screen')).toHaveAttribute('data-phase', 'active');

    // The chat still works, both ways, with the same guest.
    await guest.getByLabel('Message').fill('Are you back?');
    await guest.getByRole('button', { name: 'Send' }).click();
    await expect(agentChat.getByText('Are you back?')).toBeVisible();
    await agentChat.getByLabel('Message').fill('Yes, back after my reload');
    await agentChat.getByRole('button', { name: 'Send' }).click();
    await expect(guestChat.getByText('Yes, back after my reload')).toBeVisible();

    // The call ends as any other: the agent hangs up, the guest is told so.
    await agent.getByRole('button', { name: 'End call' }).click();
    await expect(guest.getByTestId('call-end-notice')).toHaveAttribute('data-notice', 'agentEnded');
    await expect(agent).toHaveURL(/\/console\/(calls\/[^/]+|queue)$/);
  } finally {
    await agent.context().close();
  }
});

test('console: a reload on the address of a call that is over says so and goes back to the queue', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(120_000);
  const agent = await callInProgress(guest, browser, 'Olle Over');
  try {
    await expect(agent).toHaveURL(/\/console\/calls\/[^/]+$/);
    const callUrl = agent.url();
    await agent.getByRole('button', { name: 'End call' }).click();
    await expect(guest.getByTestId('call-end-notice')).toHaveAttribute('data-notice', 'agentEnded');
    // The link to the ended call, opened again (a bookmark, the history): nothing to rejoin.
    await agent.goto(callUrl);
    await expect(agent.getByTestId('call-rejoin')).toHaveText(/The call you were in is over\./);
    await expect(agent).toHaveURL(/\/console\/queue$/);
    await expect(agent.getByTestId('call-screen')).toHaveCount(0);
    await agent.screenshot({ path: `${docsImages}/console-rejoin-call-over.png` });
  } finally {
    await agent.context().close();
  }
});
