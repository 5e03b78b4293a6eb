import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { COMPANY, inspectScreen } from '../support/guest.ts';
import { AGENT, signIn, waitingGuest } from '../support/console.ts';

/** Company 12's Sales category, served by Cy and Di at any hour (apps/api/src/db/seed.ts). */
const CLOCK_SALES = 10;

test('two agents accept one guest: exactly one gets the call, the other is told who did', async ({
  browser,
}) => {
  const contexts = await Promise.all([browser.newContext(), browser.newContext()]);
  const [cy, di] = await Promise.all(contexts.map((context) => context.newPage()));
  if (!cy || !di) throw new Error('no page');
  await Promise.all([signIn(cy, AGENT.cy), signIn(di, AGENT.di)]);
  const guest = await waitingGuest(COMPANY.aroundTheClock, CLOCK_SALES);
  try {
    const accept = (page: Page) =>
      page.getByTestId('queue-guest').getByRole('button', { name: /^Accept/ });
    await Promise.all([expect(accept(cy)).toBeEnabled(), expect(accept(di)).toBeEnabled()]);
    await Promise.all([accept(cy).click(), accept(di).click()]);

    // One call screen between them; the other agent reads who took the call.
    const winnerIndex = await Promise.race(
      [cy, di].map((page, index) =>
        page
          .getByTestId('call-screen')
          .waitFor()
          .then(() => index),
      ),
    );
    const winner = winnerIndex === 0 ? cy : di;
    const loser = winnerIndex === 0 ? di : cy;
    const winnerName = winnerIndex === 0 ? 'Cy Agent' : 'Di Agent';
    await expect(loser.getByTestId('claim-notice')).toHaveText(
      new RegExp(`${winnerName} has taken this call`),
    );
    await expect(loser.getByTestId('call-screen')).toHaveCount(0);

    // The winner announces the call in the category room (docs/protocol.md step 3) ...
    const room = await guest.roomWhen((snapshot) =>
      snapshot.occupants.some((o) => o.status?.state === 'InCall' && o.status.peer === guest.nick),
    );
    const agent = room.occupants.find((o) => o.status?.peer === guest.nick);
    expect(agent?.status).toEqual({ state: 'InCall', peer: guest.nick, callId: guest.callId });
    // ... and publishes its camera into the call's Janus room.
    const call = winner.getByTestId('call-screen');
    await expect(call).toHaveAttribute('data-phase', 'active');
    await expect(winner.getByTestId('local-video')).toHaveAttribute('data-live', 'true');
    await expect(winner.getByRole('heading', { level: 2, name: /^Call with/ })).toBeFocused();

    // Chat both ways.
    const received = new Promise<string>((resolve) => {
      const off = guest.chat.on('message', (record) => {
        if (record.direction === 'in' && typeof record.payload.message === 'string') {
          off();
          resolve(record.payload.message);
        }
      });
    });
    await winner.getByLabel('Message').fill('Hello, how can I help?');
    await winner.getByRole('button', { name: 'Send' }).click();
    expect(await received).toBe('Hello, how can I help?');
    guest.chat.sendMessage(agent?.nick ?? '', 'My order is late.');
    await expect(
      winner.getByTestId('chat-message').filter({ hasText: 'My order is late.' }),
    ).toHaveAttribute('data-direction', 'in');

    // Hold and resume reach the guest as presences naming the call (step 6).
    await winner.getByRole('button', { name: 'Hold' }).click();
    await expect(winner.getByText('The guest is on hold.')).toBeVisible();
    await guest.roomWhen((s) => s.occupants.some((o) => o.status?.state === 'CallOnHold'));
    await inspectScreen(winner, 'console-call-on-hold');
    await winner.getByRole('button', { name: 'Resume' }).click();
    await guest.roomWhen((s) => s.occupants.some((o) => o.status?.state === 'CallResumed'));

    await winner.getByLabel('Notes').fill('Order 1234 is late; promised a call back.');
    await winner.getByRole('button', { name: 'Save notes' }).click();
    await expect(winner.getByText('Notes saved')).toBeVisible();

    await winner.getByRole('button', { name: 'End call' }).click();
    await expect(call).toHaveAttribute('data-phase', 'ended');
    await expect(winner.getByText('The call has ended.')).toBeVisible();
    // Ending clears the agent's call presence in the room (step 8).
    await guest.roomWhen(
      (s) => !s.occupants.some((o) => o.status?.peer === guest.nick && o.nick !== guest.nick),
    );
  } finally {
    await guest.leave();
    await Promise.all(contexts.map((context) => context.close()));
  }
});
