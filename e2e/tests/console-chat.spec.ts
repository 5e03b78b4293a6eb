import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { SCREENS } from '../support/call-screen.ts';
import { callInProgress, expectAxeClean, signIn } from '../support/console.ts';

/** Company 12's admin (apps/api/src/db/seed.ts DEMO_LOGINS). */
const ZOE = 'zoe@frontdesk.demo';
const IMAGES = resolve(import.meta.dirname, '../../docs/images');

/** Files to send in the chat: a picture (one of the project's own screenshots) and a tiny PDF. */
const PNG = readFileSync(`${IMAGES}/guest-call-video-phone.png`);
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** Scrolls `target` into sight and waits until the page has painted twice since. */
async function settled(page: Page, target: Locator) {
  await target.scrollIntoViewIfNeeded();
  await expect(target).toBeInViewport();
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  );
}

test('chat as agents expect: a canned reply from the admin, typing both ways, read state, files as cards', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(240_000);
  // A shortcut of this run's own: the company keeps its replies from run to run.
  const shortcut = `hours-${randomBytes(3).toString('hex')}`;

  // The company admin adds a canned reply at /console/admin/replies.
  const admin = await (await browser.newContext()).newPage();
  try {
    await signIn(admin, ZOE);
    await admin.goto('/console/admin/replies');
    await admin.getByRole('button', { name: 'Add a reply' }).click();
    const dialog = admin.getByTestId('canned-reply-dialog');
    await dialog.getByLabel('Title').fill('Opening hours');
    await dialog.getByLabel('Shortcut').fill(shortcut);
    await dialog.getByLabel('Text').fill('We answer calls at any hour, every day of the year.');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(admin.getByTestId('outcome')).toHaveText('Added “Opening hours”.');
    await expectAxeClean(admin);
  } finally {
    await admin.context().close();
  }

  const agent = await callInProgress(guest, browser, 'Chloe Chat');
  try {
    const agentChat = agent.getByTestId('chat-panel');
    await guest.getByTestId('chat-toggle').click();

    // Typing shows on the other side, both ways (XEP-0085).
    await guest.getByLabel('Message').pressSequentially('My meter reading', { delay: 20 });
    await expect(agentChat.getByTestId('guest-typing')).toHaveText(/is typing…/);
    await guest.getByRole('button', { name: 'Send' }).click();
    await expect(agentChat.getByTestId('guest-typing')).toHaveText('');
    const box = agentChat.getByRole('combobox', { name: 'Message' });
    await box.pressSequentially('Thanks', { delay: 20 });
    await expect(guest.getByTestId('agent-typing')).toHaveText('Cy is typing…');
    await box.fill('');
    await expect(guest.getByTestId('agent-typing')).toHaveText('');

    // The canned reply by its shortcut, then sent; the guest's open chat marks it read.
    await box.pressSequentially(`/${shortcut.slice(0, 7)}`);
    await expect(agentChat.getByRole('option', { name: /Opening hours/ })).toBeVisible();
    await box.press('Enter');
    await expect(box).toHaveValue('We answer calls at any hour, every day of the year.');
    await agentChat.getByRole('button', { name: 'Send' }).click();
    await expect(guest.getByTestId('chat-messages')).toContainText('We answer calls at any hour');
    const sent = agentChat
      .getByTestId('chat-message')
      .filter({ hasText: 'We answer calls at any hour' });
    await expect(sent).toHaveAttribute('data-delivery', 'read');
    // Every message has its time.
    await expect(sent.locator('time')).toHaveText(/^\d\d:\d\d$/);

    // Files both ways, as cards: the agent's image with its thumbnail, the guest's document.
    await agentChat
      .getByLabel('Attach a file')
      .setInputFiles({ name: 'meter-photo.png', mimeType: 'image/png', buffer: PNG });
    const imageCard = agentChat.getByTestId('file-card').filter({ hasText: 'meter-photo.png' });
    await expect(imageCard.locator('img')).toBeVisible();
    await expect(guest.getByRole('link', { name: /meter-photo\.png/ })).toBeVisible();
    await guest
      .getByTestId('chat-file')
      .setInputFiles({ name: 'contract.pdf', mimeType: 'application/pdf', buffer: PDF });
    await expect(
      agentChat.getByTestId('file-card').filter({ hasText: 'contract.pdf' }),
    ).toContainText('Document');

    // The guest writes on: the agent sees it typing in the screenshots.
    await guest.getByLabel('Message').pressSequentially('One more thing', { delay: 20 });
    await expect(agentChat.getByTestId('guest-typing')).toHaveText(/is typing…/);

    await agent.setViewportSize(SCREENS.desktop);
    await settled(agent, agentChat.getByRole('button', { name: 'Send' }));
    await agent.screenshot({ path: `${IMAGES}/console-chat.png` });
    await expectAxeClean(agent);
    await agent.setViewportSize(SCREENS.phone);
    await settled(agent, agentChat.getByRole('button', { name: 'Send' }));
    await agent.screenshot({ path: `${IMAGES}/console-chat-phone.png` });
    await expectAxeClean(agent);

    // The same chat in Arabic (decision 0029): right to left, the agent's messages and cards at
    // the left, the guest's at the right, the times as Arabic says them.
    await agent.setViewportSize(SCREENS.desktop);
    await agent.getByRole('button', { name: 'Account menu, Cy Agent' }).click();
    await agent.getByRole('menuitemradio', { name: 'العربية' }).click();
    await expect(agent.locator('html')).toHaveAttribute('dir', 'rtl');
    const send = agentChat.getByRole('button', { name: 'إرسال' });
    await expect(send).toBeVisible();
    const boxOf = async (locator: Locator) => {
      const found = await locator.boundingBox();
      if (!found) throw new Error(`${String(locator)} has no box`);
      return found;
    };
    const agentsCard = await boxOf(imageCard);
    const guestsCard = await boxOf(
      agentChat.getByTestId('file-card').filter({ hasText: 'contract.pdf' }),
    );
    expect(agentsCard.x).toBeLessThan(guestsCard.x);
    // Chromium's Arabic writes the hour with Latin digits and the Arabic AM/PM mark.
    await expect(sent.locator('time')).toHaveText(/^\d{2}:\d{2} [صم]$/);
    await settled(agent, send);
    await agent.screenshot({ path: `${IMAGES}/console-chat-ar.png` });
    await expectAxeClean(agent);
  } finally {
    await agent.context().close();
  }
});
