import { resolve } from 'node:path';
import type { Locator } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { SCREENS } from '../support/call-screen.ts';
import { callInProgress, expectAxeClean } from '../support/console.ts';
import { expectMovingVideo } from '../support/guest.ts';

const docsImages = resolve(import.meta.dirname, '../../docs/images');

/** How long since `start`, for the journey's report. */
const since = (start: number) => `${Date.now() - start} ms`;

/** A tiny PDF for the guest to send in the chat. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** The seconds a call timer shows (`m:ss` or `h:mm:ss`). */
async function timerSeconds(timer: Locator): Promise<number> {
  const text = (await timer.locator('time').textContent()) ?? '';
  return text.split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

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

test('console: a reload keeps the call as it was — held, with its chat and its time since the answer', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(180_000);
  const agent = await callInProgress(guest, browser, 'Hana Hold');
  try {
    const agentChat = agent.getByTestId('chat-panel');
    const callScreen = agent.getByTestId('call-screen');
    // The conversation so far: a word each way and a file from the guest.
    await guest.getByTestId('chat-toggle').click();
    await guest.getByLabel('Message').fill('Hello, is my order late?');
    await guest.getByRole('button', { name: 'Send' }).click();
    await expect(agentChat.getByText('Hello, is my order late?')).toBeVisible();
    await agentChat.getByLabel('Message').fill('Let me look, one moment please');
    await agentChat.getByRole('button', { name: 'Send' }).click();
    await expect(guest.getByTestId('chat-messages')).toContainText('Let me look');
    await guest
      .getByTestId('chat-file')
      .setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: PDF });
    const fileCard = agentChat.getByTestId('file-card').filter({ hasText: 'receipt.pdf' });
    await expect(fileCard).toHaveCount(1);

    // The agent puts the guest on hold: the guest sees the hold page.
    await agent.getByRole('button', { name: 'Hold' }).click();
    await expect(callScreen).toHaveAttribute('data-hold', 'true');
    await expect(guest.getByTestId('hold-page')).toBeVisible();
    // Long enough into the call that a timer started again by the reload could not show as much.
    const timer = agent.getByTestId('call-timer');
    await expect(async () => expect(await timerSeconds(timer)).toBeGreaterThanOrEqual(10)).toPass();
    const before = await timerSeconds(timer);

    await agent.reload();
    // Back as it was: held, Resume offered, and the guest still on its hold page.
    await expect(callScreen).toHaveAttribute('data-hold', 'true');
    await expect(agent.getByRole('button', { name: 'Resume' })).toBeVisible();
    await expect(agent.getByText('The guest is on hold.')).toBeVisible();
    await expect(guest.getByTestId('reconnecting')).toBeHidden();
    await expect(guest.getByTestId('hold-page')).toBeVisible();
    // The chat so far, each message once, the guest's file with it.
    await expect(agentChat.getByText('Hello, is my order late?')).toHaveCount(1);
    await expect(agentChat.getByText('Let me look, one moment please')).toHaveCount(1);
    await expect(fileCard).toHaveCount(1);
    await expect(fileCard).toContainText('Document');
    // The time since the answer, not since the reload.
    const after = await timerSeconds(timer);
    test.info().annotations.push({
      type: 'call timer',
      description: `${before} s before the reload, ${after} s after`,
    });
    expect(after).toBeGreaterThanOrEqual(before);

    await expect(callScreen).toHaveAttribute('data-phase', 'active');
    for (const [name, size] of [
      ['console-rejoin-held', SCREENS.desktop],
      ['console-rejoin-held-phone', SCREENS.phone],
    ] as const) {
      await agent.setViewportSize(size);
      // The whole page: the call's header (its time), the hold and its Resume, and the chat.
      await agent.screenshot({ path: `${docsImages}/${name}.png`, fullPage: true });
      await expectAxeClean(agent);
    }
    await agent.setViewportSize(SCREENS.desktop);

    // The agent resumes: both see the call again.
    await agent.getByRole('button', { name: 'Resume' }).click();
    await expect(callScreen).toHaveAttribute('data-hold', 'false');
    await expect(guest.getByTestId('hold-page')).toBeHidden();
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
    await expectMovingVideo(guest, 'remote-video');
    await expectMovingVideo(agent, 'remote-video');
    // And the chat goes on, nothing doubled.
    if (!(await guest.getByLabel('Message').isVisible())) {
      await guest.getByTestId('chat-toggle').click();
    }
    await guest.getByLabel('Message').fill('Thanks for waiting with me');
    await guest.getByRole('button', { name: 'Send' }).click();
    await expect(agentChat.getByText('Thanks for waiting with me')).toHaveCount(1);
    await expect(agentChat.getByText('Hello, is my order late?')).toHaveCount(1);

    await agent.getByRole('button', { name: 'End call' }).click();
    await expect(guest.getByTestId('call-end-notice')).toHaveAttribute('data-notice', 'agentEnded');
  } finally {
    await agent.context().close();
  }
});
