import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { AGENT, markAway, signIn } from '../support/console.ts';
import { COMPANY, openGuest } from '../support/guest.ts';

const docsImages = resolve(import.meta.dirname, '../../docs/images');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/** An answer of 2,000 characters with no space to break at (issue 19's 19,000-pixel page). */
const LONG_ANSWER = 'Order#'.repeat(333) + 'xx';
/** A guest's name as long as the form allows (100), mostly one word. */
const LONG_NAME = `Vida ${'Workspace'.repeat(10)}`;

/** An agent's console in a window of `viewport`, signed in. */
async function agentAt(browser: Browser, email: string, viewport = DESKTOP): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  await signIn(page, email);
  return page;
}

/** The page is no wider than its window: nothing makes it scroll sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    document: document.documentElement.scrollWidth,
    window: document.documentElement.clientWidth,
  }));
  expect(widths.document).toBe(widths.window);
}

/** axe finds nothing at all, of any impact. */
async function expectAxeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(
    violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
    ),
  ).toEqual([]);
}

/** The guest of company 12 from the welcome form to waiting, with a long answer. */
async function guestWaits(guest: Page, callType: 'Video call' | 'Voice call', name: string) {
  await openGuest(guest, COMPANY.aroundTheClock, 'welcome');
  await guest.getByLabel(/Your name/).fill(name);
  await guest.getByLabel(/E-mail/).fill('guest@example.org');
  await guest.getByLabel(/What is it about/).selectOption('existing-order');
  await guest.getByLabel(/Anything we should know/).fill(LONG_ANSWER);
  await guest.getByRole('button', { name: 'Start' }).click();
  await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'preview');
  await guest.getByRole('button', { name: 'Continue' }).click();
  await guest.getByTestId('category-11').click();
  await guest.getByLabel(callType).check();
  await guest.getByRole('button', { name: 'Start the call' }).click();
  await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'waiting');
}

async function accept(agent: Page, name: string) {
  const row = agent.getByTestId('queue-guest').filter({ hasText: name });
  await row.getByRole('button', { name: /^Accept/ }).click();
  await expect(agent.getByTestId('call-screen')).toHaveAttribute('data-phase', 'active');
}

test.describe('the agent’s workspace (issue 19 items 2 and 3)', () => {
  test.beforeAll(async () => {
    // Only Cy takes company 12's calls here: Di is marked away.
    await markAway(AGENT.di);
  });

  test('a video call: queue, call and the guest’s details side by side; folded on a phone', async ({
    browser,
    page: guest,
  }) => {
    test.setTimeout(120_000);
    const agent = await agentAt(browser, AGENT.cy);
    try {
      await guestWaits(guest, 'Video call', LONG_NAME);
      const row = agent.getByTestId('queue-guest').filter({ hasText: 'Vida Workspace' });
      await expect(row).toContainText(LONG_ANSWER.slice(0, 60));
      await expectNoSidewaysScroll(agent);

      await accept(agent, LONG_NAME);
      await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
      await expect(agent.getByTestId('remote-video')).toHaveAttribute('data-live', 'true');
      await expect(agent.getByRole('timer', { name: 'Call time' })).toHaveText(/\d+:\d\d/);

      // The guest's details, kept through the call: labels, not raw values.
      const panel = agent.getByRole('complementary', { name: 'About the guest' });
      await expect(panel.getByTestId('guest-name')).toContainText(LONG_NAME);
      await expect(agent.getByRole('heading', { name: `Call with ${LONG_NAME}` })).toBeVisible();
      const answers = panel.getByTestId('guest-answers');
      await expect(answers).toContainText('What is it about?');
      await expect(answers).toContainText('An existing order');
      await expect(answers).not.toContainText('existing-order');
      await expect(answers).toContainText(LONG_ANSWER.slice(0, 60));
      await expect(answers).not.toContainText(LONG_ANSWER.slice(-60));
      await expect(panel.getByTestId('guest-client')).toContainText('Chrome 156 on Linux');
      await expect(panel.getByTestId('guest-past-calls')).toBeVisible();
      // Three columns at 1280 pixels: queue, call, guest, one beside the other.
      const [queueBox, callBox, panelBox] = await Promise.all(
        [agent.getByTestId('queue'), agent.getByTestId('call-screen'), panel].map((l) =>
          l.boundingBox(),
        ),
      );
      expect(queueBox && callBox && queueBox.x + queueBox.width <= callBox.x).toBe(true);
      expect(callBox && panelBox && callBox.x + callBox.width <= panelBox.x).toBe(true);
      await expectNoSidewaysScroll(agent);
      await expectAxeClean(agent);
      await agent.screenshot({ path: `${docsImages}/console-workspace-video.png` });
      // The long answer shows its start until asked for whole, and whole it still wraps.
      const showAll = answers.getByRole('button', { name: 'Show all (2,000 characters)' });
      await showAll.click();
      await expect(answers.getByRole('button', { name: 'Show less' })).toHaveAttribute(
        'aria-expanded',
        'true',
      );
      await expect(answers).toContainText(LONG_ANSWER.slice(-60));
      await expectNoSidewaysScroll(agent);
      await answers.getByRole('button', { name: 'Show less' }).click();

      // A phone: one column, the call first, the guest's details folded until asked for.
      await agent.setViewportSize(PHONE);
      const unfold = panel.getByRole('button', { name: 'About the guest' });
      await expect(unfold).toHaveAttribute('aria-expanded', 'false');
      await expect(answers).toBeHidden();
      await expectNoSidewaysScroll(agent);
      await expectAxeClean(agent);
      await agent.screenshot({ path: `${docsImages}/console-workspace-phone.png`, fullPage: true });
      await unfold.click();
      await expect(unfold).toHaveAttribute('aria-expanded', 'true');
      await expect(answers).toContainText('An existing order');
      await expectNoSidewaysScroll(agent);
      await expectAxeClean(agent);
      await agent.screenshot({ path: `${docsImages}/console-workspace-phone-guest.png` });
      // A tablet's width: two columns, the queue beside the call, the guest's panel above it.
      await agent.setViewportSize({ width: 1024, height: 768 });
      await expect(panel.getByRole('button', { name: 'About the guest' })).toBeVisible();
      const [tabletPanel, tabletCall] = await Promise.all([
        panel.boundingBox(),
        agent.getByTestId('call-screen').boundingBox(),
      ]);
      expect(tabletPanel && tabletCall && tabletPanel.y < tabletCall.y).toBe(true);
      await expectNoSidewaysScroll(agent);
      await agent.setViewportSize(DESKTOP);

      await agent.getByRole('button', { name: 'End call' }).click();
      await expect(agent.getByTestId('call-screen')).toHaveAttribute('data-phase', 'ended');
      // The details stay for the wrap-up.
      await expect(answers).toContainText('An existing order');
      await agent.getByRole('button', { name: 'Back to the queue' }).click();
      await expect(agent.getByTestId('no-call')).toBeVisible();
    } finally {
      await agent.context().close();
    }
  });

  test('a voice call shows the guest’s initials and the time, no video tiles, no camera', async ({
    browser,
    page: guest,
  }) => {
    test.setTimeout(120_000);
    const agent = await agentAt(browser, AGENT.cy);
    try {
      await guestWaits(guest, 'Voice call', 'Vince Voice');
      await accept(agent, 'Vince Voice');
      await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
      const stage = agent.getByRole('group', { name: 'Voice call with Vince Voice' });
      await expect(stage).toContainText('VV');
      await expect(stage.getByRole('timer', { name: 'Call time' })).toHaveText(/\d+:\d\d/);
      await expect(agent.getByTestId('remote-audio')).toHaveAttribute('data-live', 'true');
      await expect(agent.locator('video')).toHaveCount(0);
      await expect(agent.getByRole('combobox', { name: 'Microphone' })).toBeVisible();
      await expect(agent.getByRole('combobox', { name: 'Camera' })).toHaveCount(0);
      await expect(agent.getByRole('button', { name: /camera/i })).toHaveCount(0);
      await expectNoSidewaysScroll(agent);
      await expectAxeClean(agent);
      await agent.screenshot({ path: `${docsImages}/console-workspace-voice.png` });
      await agent.getByRole('button', { name: 'End call' }).click();
      await expect(agent.getByTestId('call-screen')).toHaveAttribute('data-phase', 'ended');
    } finally {
      await agent.context().close();
    }
  });
});
