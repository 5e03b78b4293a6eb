import { expect, test } from '../support/fixtures.ts';
import { COMPANY, inspectScreen, openGuest } from '../support/guest.ts';
import { AGENT, agentPage } from '../support/console.ts';

test('an agent takes a guest of the guest app: both see each other, hold reaches the guest', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(120_000);
  const agent = await agentPage(browser, AGENT.cy);
  try {
    // The guest of company 12 walks to the waiting stage (welcome form, preview, selection).
    await openGuest(guest, COMPANY.aroundTheClock, 'welcome');
    await guest.getByLabel(/Your name/).fill('Grace Guest');
    await guest.getByLabel(/E-mail/).fill('grace@example.org');
    await guest.getByLabel(/What is it about/).selectOption('existing-order');
    await guest.getByRole('button', { name: 'Start' }).click();
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'preview');
    await guest.getByRole('button', { name: 'Continue' }).click();
    await guest.getByTestId('category-11').click();
    await guest.getByLabel('Video call').check();
    await guest.getByRole('button', { name: 'Start the call' }).click();
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'waiting');

    // The agent sees the guest with its welcome-form answers, and takes the call.
    const row = agent.getByTestId('queue-guest');
    await expect(row.getByText('Grace Guest')).toBeVisible();
    await row.getByRole('button', { name: /^Accept/ }).click();

    // docs/protocol.md step 4: the guest sees the claim, both sides get the other's media.
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
    await expect(agent.getByTestId('remote-video')).toHaveAttribute('data-live', 'true');
    // The call's view has an address of its own (decision 0024), which a link can name.
    await expect(agent).toHaveURL(/\/console\/calls\/[^/]+$/);
    await expect(agent.getByTestId('quality-receive')).not.toHaveAttribute('data-level', 'unknown');
    await inspectScreen(agent, 'console-call');

    await agent.getByRole('button', { name: 'Hold' }).click();
    await expect(guest.getByTestId('hold-page')).toBeVisible();
    await agent.getByRole('button', { name: 'Resume' }).click();
    await expect(guest.getByTestId('hold-page')).toBeHidden();

    await agent.getByRole('button', { name: 'End call' }).click();
    await expect(agent.getByText('The call has ended.')).toBeVisible();
    await expect(guest.getByTestId('guest-page')).not.toHaveAttribute('data-stage', 'ongoing');
    // Put away, the call gives the address back to the queue.
    await agent.getByRole('button', { name: 'Back to the queue' }).click();
    await expect(agent).toHaveURL(/\/console\/queue$/);
    await expect(agent.getByRole('heading', { name: 'Waiting guests' })).toBeVisible();
  } finally {
    await agent.context().close();
  }
});
