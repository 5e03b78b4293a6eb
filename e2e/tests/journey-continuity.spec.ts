import { execFileSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { PEER_GONE_GRACE_MS } from '@frontdesk/protocol';
import { expect, likeAPerson, test } from '../support/fixtures.ts';
import { callInProgress } from '../support/console.ts';
import { queryRows } from '../support/db.ts';
import { resolve } from 'node:path';
import {
  COMPANY,
  expectMovingVideo,
  inspectScreen,
  openGuest,
  walkToWaiting,
} from '../support/guest.ts';

const docsImages = resolve(import.meta.dirname, '../../docs/images');

/** The call this tab keeps for a reload (decision 0025), as the page stored it. */
const keptCallId = (page: Page, company: number = COMPANY.aroundTheClock) =>
  page.evaluate(
    (key) => JSON.parse(sessionStorage.getItem(key) ?? 'null')?.callId as string | undefined,
    `frontdesk.call.${company}`,
  );

/**
 * What the browser's "Duplicate" does: a second tab of the same page with a copy of the first
 * tab's session storage (the call's ticket in it).
 */
async function duplicateTab(page: Page): Promise<Page> {
  const copied = await page.evaluate(() => Object.entries(sessionStorage));
  const duplicate = await page.context().newPage();
  await duplicate.addInitScript((entries) => {
    if (sessionStorage.length === 0)
      for (const [key, value] of entries) sessionStorage.setItem(key, value);
  }, copied);
  await duplicate.goto(page.url());
  return duplicate;
}

/** A small PNG: a file the agent sends in the chat. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
  'base64',
);

/** The address scripts/isolated gives veth0, the only interface ICE gathers on. */
const VETH_ADDRESS = '10.200.0.1/24';

/**
 * The media's network going away (`down`: veth0 loses its address, and with it its route) or a
 * network there again (`up`: the address and its route back; nothing when it is there already).
 * The pages reach the API and the chat over loopback, which stays.
 */
function networkSwitch(direction: 'down' | 'up') {
  const present = execFileSync('ip', ['-o', 'addr', 'show', 'dev', 'veth0'], {
    encoding: 'utf8',
  }).includes(VETH_ADDRESS);
  if (direction === 'down' && present)
    execFileSync('ip', ['addr', 'del', VETH_ADDRESS, 'dev', 'veth0']);
  if (direction === 'up' && !present)
    execFileSync('ip', ['addr', 'add', VETH_ADDRESS, 'dev', 'veth0']);
}

/** How long since `start`, for the journey's report. */
const since = (start: number) => `${Date.now() - start} ms`;

test('continuity: a reload while waiting keeps the same call and its place in the queue', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(120_000);
  const aheadContext = await browser.newContext();
  await likeAPerson(aheadContext);
  const ahead = await aheadContext.newPage();
  try {
    await walkToWaiting(ahead, {
      categoryTestId: 'category-12',
      callType: 'Video call',
      name: 'Ada Ahead',
    });
    await walkToWaiting(guest, {
      categoryTestId: 'category-12',
      callType: 'Video call',
      name: 'Rita Reload',
    });
    const place = guest.getByTestId('queue-position');
    await expect(place).toBeVisible();
    const position = await place.getAttribute('data-position');
    expect(Number(position)).toBeGreaterThan(1);
    const callId = await keptCallId(guest);
    expect(callId).toBeTruthy();

    await guest.reload();
    // Straight back to the queue (no form, no camera check), in the same place, with the same call.
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'waiting');
    await expect(place).toHaveAttribute('data-position', position ?? '');
    expect(await keptCallId(guest)).toBe(callId);
    const calls = await queryRows<{ call_id: string; ended_at: Date | null }>(
      `select r.call_id, r.ended_at from call_reports r
        where r.guest_id = (select guest_id from call_reports where call_id = $1)`,
      [callId],
    );
    expect(calls).toEqual([{ call_id: callId, ended_at: null }]);
  } finally {
    await ahead.context().close();
  }
});

test('continuity: a reload mid-call resumes the call with video both ways; the agent sees it reconnecting', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(180_000);
  const agent = await callInProgress(guest, browser, 'Remy Resume');
  try {
    const callId = await keptCallId(guest);
    expect(callId).toBeTruthy();
    // A few words each way, and a file from the agent, before the reload.
    const agentChat = agent.getByTestId('chat-panel');
    await guest.getByTestId('chat-toggle').click();
    await guest.getByLabel('Message').fill('Before the reload');
    await guest.getByRole('button', { name: 'Send' }).click();
    await expect(agentChat.getByText('Before the reload')).toBeVisible();
    await agentChat.getByLabel('Message').fill('Noted, one moment');
    await agentChat.getByRole('button', { name: 'Send' }).click();
    await agentChat
      .getByLabel('Attach a file')
      .setInputFiles({ name: 'agent-form.png', mimeType: 'image/png', buffer: PNG });
    await expect(guest.getByRole('link', { name: /agent-form\.png/ })).toBeVisible();
    await expect(guest.getByTestId('chat-messages')).toContainText('Noted, one moment');
    const start = Date.now();
    await guest.reload();
    // The agent is told the guest's connection dropped, not shown a frozen picture as "good".
    await expect(agent.getByTestId('guest-link')).toContainText('reconnecting');
    test
      .info()
      .annotations.push({ type: 'agent saw reconnecting after', description: since(start) });
    // The same call, on its call screen at once, the pictures back both ways within 5 s.
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
    await expect(guest.getByTestId('remote-video')).toBeVisible({ timeout: 5000 });
    await expect(agent.getByTestId('remote-video')).toBeVisible({
      timeout: 5000 - (Date.now() - start),
    });
    test.info().annotations.push({ type: 'video both ways after', description: since(start) });
    await expectMovingVideo(guest, 'remote-video');
    await expectMovingVideo(agent, 'remote-video');
    await expect(agent.getByTestId('guest-link')).toBeHidden();
    expect(await keptCallId(guest)).toBe(callId);
    await expect(agent.getByTestId('call-screen')).toHaveAttribute('data-phase', 'active');

    // The chat of the call is back on the guest's side, each message once, the file with it; the
    // agent's side shows each once too.
    await guest.getByTestId('chat-toggle').click();
    const guestChat = guest.getByTestId('chat-messages');
    await expect(guestChat.getByText('Before the reload')).toHaveCount(1);
    await expect(guestChat.getByText('Noted, one moment')).toHaveCount(1);
    await expect(guestChat.getByRole('link', { name: /agent-form\.png/ })).toHaveCount(1);
    await expect(agentChat.getByText('Before the reload')).toHaveCount(1);
    await expect(agentChat.getByText('Noted, one moment')).toHaveCount(1);

    // The call goes on: the guest's words reach the agent, after the ones before the reload.
    await guest.getByLabel('Message').fill('Back after the reload');
    await guest.getByRole('button', { name: 'Send' }).click();
    await expect(agentChat.getByText('Back after the reload')).toBeVisible();
    await expect(guestChat.locator('.chat-message').last()).toContainText('Back after the reload');
    await expect(guestChat.locator('.chat-message')).toHaveCount(4);
  } finally {
    await agent.context().close();
  }
});

test('continuity: a duplicated guest tab does not join the call; the first tab keeps it', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(180_000);
  const agent = await callInProgress(guest, browser, 'Dora Duplicate');
  try {
    const callId = await keptCallId(guest);
    expect(callId).toBeTruthy();
    const duplicate = await duplicateTab(guest);

    // The copy says the call is open in the other tab and stays out of it.
    await expect(duplicate.getByTestId('guest-page')).toHaveAttribute('data-stage', 'elsewhere');
    await expect(duplicate.getByRole('heading', { level: 1 })).toHaveText(
      'Your call is open in another tab',
    );
    await inspectScreen(duplicate, 'guest-call-elsewhere');
    expect(await keptCallId(duplicate)).toBeUndefined();

    // The first tab keeps the call: pictures both ways, no "reconnecting" on either side, chat.
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
    await expectMovingVideo(guest, 'remote-video');
    await expectMovingVideo(agent, 'remote-video');
    await expect(agent.getByTestId('guest-link')).toBeHidden();
    await expect(agent.getByTestId('call-screen')).toHaveAttribute('data-phase', 'active');
    await guest.getByTestId('chat-toggle').click();
    await guest.getByLabel('Message').fill('Still in the first tab');
    await guest.getByRole('button', { name: 'Send' }).click();
    await expect(agent.getByTestId('chat-panel').getByText('Still in the first tab')).toBeVisible();
    expect(await keptCallId(guest)).toBe(callId);

    // A reload of the first tab still takes its call up again (its own claim let go of).
    await guest.reload();
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
    await expectMovingVideo(guest, 'remote-video');
    await guest.getByTestId('chat-toggle').click();
    await expect(guest.getByTestId('chat-messages')).toContainText('Still in the first tab');
    await duplicate.setViewportSize({ width: 390, height: 844 });
    await duplicate.screenshot({ path: `${docsImages}/guest-call-elsewhere-phone.png` });
  } finally {
    await agent.context().close();
  }
});

test('continuity: a duplicated tab of an Arabic guest waiting in the queue says so, right to left, and the first keeps its place', async ({
  page: guest,
}) => {
  test.setTimeout(120_000);
  await openGuest(guest, COMPANY.arabic, 'welcome');
  await guest.getByLabel(/الاسم/).fill('دعاء');
  await guest.getByLabel(/البريد الإلكتروني/).fill('doaa@example.org');
  await guest.getByRole('button', { name: 'ابدأ' }).click();
  await guest.getByRole('button', { name: 'متابعة' }).click();
  await guest.getByRole('button', { name: 'ابدأ المكالمة' }).click();
  await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'waiting');
  const place = guest.getByTestId('queue-position');
  await expect(place).toBeVisible();
  const position = await place.getAttribute('data-position');
  const callId = await keptCallId(guest, COMPANY.arabic);

  const duplicate = await duplicateTab(guest);
  await expect(duplicate.getByTestId('guest-page')).toHaveAttribute('data-stage', 'elsewhere');
  await expect(duplicate.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(duplicate.getByRole('heading', { level: 1 })).toHaveText(
    'مكالمتك مفتوحة في علامة تبويب أخرى',
  );
  await duplicate.setViewportSize({ width: 390, height: 844 });
  await inspectScreen(duplicate, 'guest-call-elsewhere-rtl-mobile');
  await duplicate.screenshot({ path: `${docsImages}/guest-call-elsewhere-rtl-phone.png` });
  await duplicate.setViewportSize({ width: 1280, height: 800 });
  await inspectScreen(duplicate, 'guest-call-elsewhere-rtl-desktop');
  expect(await keptCallId(duplicate, COMPANY.arabic)).toBeUndefined();

  // The first tab still waits with its call, in its place.
  await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'waiting');
  await expect(place).toHaveAttribute('data-position', position ?? '');
  expect(await keptCallId(guest, COMPANY.arabic)).toBe(callId);
});

test('continuity: a network switch mid-call: the same call comes back with video both ways and the same chat', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(180_000);
  const agent = await callInProgress(guest, browser, 'Nina Network');
  try {
    const callId = await keptCallId(guest);
    const agentChat = agent.getByTestId('chat-panel');
    await guest.getByTestId('chat-toggle').click();
    await guest.getByLabel('Message').fill('Before the switch');
    await guest.getByRole('button', { name: 'Send' }).click();
    await expect(agentChat.getByText('Before the switch')).toBeVisible();
    await expectMovingVideo(agent, 'remote-video');

    // The network the media takes goes away: the interface ICE gathers on loses its address and
    // its route (as a phone leaving its Wi-Fi), until the page sees its call reconnecting.
    networkSwitch('down');
    try {
      await expect(guest.getByTestId('reconnecting')).toHaveAttribute('data-reconnecting', 'self');
    } finally {
      // The new network: an address and a route again.
      networkSwitch('up');
    }

    // The same call, never left: pictures both ways again, nobody told "reconnecting" any more.
    await expect(guest.getByTestId('reconnecting')).toBeHidden();
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
    await expectMovingVideo(guest, 'remote-video');
    await expectMovingVideo(agent, 'remote-video');
    await expect(agent.getByTestId('guest-link')).toBeHidden();
    await expect(agent.getByTestId('call-screen')).toHaveAttribute('data-phase', 'active');
    expect(await keptCallId(guest)).toBe(callId);

    // The same chat, each message once, and it goes on both ways.
    await expect(guest.getByTestId('chat-messages').getByText('Before the switch')).toHaveCount(1);
    await expect(agentChat.getByText('Before the switch')).toHaveCount(1);
    await agentChat.getByLabel('Message').fill('After the switch');
    await agentChat.getByRole('button', { name: 'Send' }).click();
    await expect(guest.getByTestId('chat-messages')).toContainText('After the switch');
    await guest.getByLabel('Message').fill('Got it');
    await guest.getByRole('button', { name: 'Send' }).click();
    await expect(agentChat.getByText('Got it')).toBeVisible();
  } finally {
    networkSwitch('up');
    await agent.context().close();
  }
});

test('continuity: a closed guest tab is shown to the agent as gone within 3 s', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(120_000);
  const agent = await callInProgress(guest, browser, 'Gina Gone');
  try {
    const start = Date.now();
    await guest.close();
    await expect(agent.getByTestId('guest-link')).toHaveAttribute('data-state', 'gone', {
      timeout: 3000,
    });
    test.info().annotations.push({ type: 'agent saw gone after', description: since(start) });
    await expect(agent.getByTestId('guest-link')).toContainText('The guest has left');
    await agent.screenshot({ path: `${docsImages}/console-call-guest-gone.png` });
  } finally {
    await agent.context().close();
  }
});

test('continuity: when the agent is really gone the guest is told so in words', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(120_000);
  const agent = await callInProgress(guest, browser, 'Olga Orphan');
  const start = Date.now();
  await agent.context().close();
  // decision 0027: a closed console looks like a reloading one, which may take the call up
  // again; the guest waits the grace, told the agent reconnects, before the call ends.
  await expect(guest.getByTestId('reconnecting')).toHaveAttribute('data-reconnecting', 'agent');
  await expect(guest.getByTestId('call-end-notice')).toHaveAttribute('data-notice', 'agentGone', {
    timeout: PEER_GONE_GRACE_MS + 5000,
  });
  test.info().annotations.push({ type: 'guest told after', description: since(start) });
  await expect(guest.getByTestId('call-end-notice')).toHaveText(
    'The agent’s connection was lost, so the call ended.',
  );
  await inspectScreen(guest, 'guest-agent-gone');
  await guest.setViewportSize({ width: 390, height: 844 });
  await guest.screenshot({ path: `${docsImages}/guest-agent-gone-phone.png` });
});
