import { expect, test } from '../support/fixtures.ts';
import { COMPANY } from '../support/guest.ts';
import { AGENT, signIn, waitingGuest } from '../support/console.ts';

/** Company 12's Sales category (apps/api/src/db/seed.ts). */
const CLOCK_SALES = 10;

test('two tabs of one agent both stay signed in, and what one sends shows in the other', async ({
  context,
}) => {
  const tabA = await context.newPage();
  const tabB = await context.newPage();
  await signIn(tabA, AGENT.cy);
  await signIn(tabB, AGENT.cy);
  const guest = await waitingGuest(COMPANY.aroundTheClock, CLOCK_SALES);
  try {
    // Both tabs are in the rooms: each lists the guest and can open its chat.
    for (const tab of [tabA, tabB]) {
      const row = tab.getByTestId('queue-guest').and(tab.locator(`[data-guest="${guest.nick}"]`));
      await row.getByRole('button', { name: /^Chat/ }).click();
    }
    await tabA.getByLabel('Message').fill('Sent from tab A');
    await tabA.getByRole('button', { name: 'Send' }).click();
    await expect(
      tabA.getByTestId('chat-message').filter({ hasText: 'Sent from tab A' }),
    ).toHaveAttribute('data-direction', 'out');
    // Carbons bring the other tab what this one sent.
    await expect(
      tabB.getByTestId('chat-message').filter({ hasText: 'Sent from tab A' }),
    ).toHaveAttribute('data-direction', 'out');

    // Neither tab was replaced by the other (spec §9's one resource is for guests).
    for (const tab of [tabA, tabB]) {
      await expect(tab.getByTestId('workspace')).toHaveAttribute('data-chat', 'connected');
      await expect(tab.getByRole('alert')).toHaveCount(0);
    }
  } finally {
    await guest.leave();
  }
});
