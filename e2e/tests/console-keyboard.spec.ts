import { resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { adminRoutes, routes } from '@frontdesk/protocol';
import { expect, test } from '../support/fixtures.ts';
import { walkToWaiting } from '../support/guest.ts';
import { AGENT, agentPage, api, expectAxeClean } from '../support/console.ts';

const IMAGES = resolve(import.meta.dirname, '../../docs/images');
const COMPANY_12 = '12';
const OUTCOMES = [
  { code: 'solved', label: 'Solved' },
  { code: 'follow-up', label: 'Needs another call' },
];

/** Presses Tab (at most 60 times) until `target` has the focus: how a keyboard user gets there. */
async function tabTo(page: Page, target: Locator) {
  for (let presses = 0; presses < 60; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${IMAGES}/${name}.png`, fullPage: true });
}

test('keyboard only, an agent accepts, mutes, holds, resumes and ends a call, then wraps it up', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(150_000);
  // Zoe, the admin of company 12, keeps two outcomes for its calls.
  const login = await api(routes.staffLogin, {
    body: { email: 'zoe@frontdesk.demo', password: 'frontdesk-demo' },
  });
  if (!('access_token' in login.data)) throw new Error('zoe must choose a password first');
  await api(adminRoutes.setOutcomeCodes, {
    params: { id: COMPANY_12 },
    body: { codes: OUTCOMES },
    token: login.data.access_token,
  });

  const agent = await agentPage(browser, AGENT.cy);
  await agent.setViewportSize({ width: 1280, height: 800 });
  try {
    await walkToWaiting(guest, {
      categoryTestId: 'category-12',
      callType: 'Video call',
      name: 'Kim Keys',
    });
    const accept = agent
      .getByTestId('queue-guest')
      .filter({ hasText: 'Kim Keys' })
      .getByRole('button', { name: /^Accept/ });
    await expect(accept).toBeVisible();
    await tabTo(agent, accept);
    await agent.keyboard.press('Enter');
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
    await expect(agent.getByTestId('remote-video')).toHaveAttribute('data-live', 'true');

    const controls = agent.getByRole('group', { name: /Call with/ });
    const mute = controls.getByRole('button', { name: 'Mute microphone' });
    await expect(mute).toHaveAttribute('aria-pressed', 'false');
    await agent.keyboard.press('m');
    await expect(mute).toHaveAttribute('aria-pressed', 'true');
    await expect(agent.getByText('Microphone muted')).toBeAttached();

    // ? lists the shortcuts; Escape puts the list away.
    await agent.keyboard.press('Shift+?');
    const help = agent.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(help).toBeVisible();
    await expectAxeClean(agent);
    await agent.keyboard.press('Escape');
    await expect(help).toBeHidden();

    await agent.keyboard.press('h');
    await expect(guest.getByTestId('hold-page')).toBeVisible();
    await expect(controls.getByRole('button', { name: 'Resume' })).toBeEnabled();
    // The controls as an agent sees them on hold with the microphone off.
    await controls.getByRole('button', { name: 'Resume' }).hover();
    await expect(agent.getByRole('tooltip')).toBeVisible();
    await shoot(agent, 'console-wrapup-controls');
    await expectAxeClean(agent);
    await agent.mouse.move(0, 0);
    await agent.keyboard.press('h');
    await expect(guest.getByTestId('hold-page')).toBeHidden();
    await expect(controls.getByRole('button', { name: 'Hold' })).toBeEnabled();

    await agent.setViewportSize({ width: 390, height: 844 });
    await shoot(agent, 'console-wrapup-controls-phone');
    await agent.setViewportSize({ width: 1280, height: 800 });

    await agent.keyboard.press('Shift+E');
    await expect(agent.getByText('The call has ended.')).toBeVisible();
    await expect(guest.getByTestId('guest-page')).not.toHaveAttribute('data-stage', 'ongoing');

    // The wrap-up, by keyboard: an outcome, a follow-up and its note, saved.
    const wrapUp = agent.getByTestId('wrap-up');
    const outcome = wrapUp.getByRole('combobox', { name: 'Outcome' });
    await tabTo(agent, outcome);
    await agent.keyboard.press('ArrowDown');
    await expect(outcome).toHaveValue('solved');
    await tabTo(agent, wrapUp.getByRole('checkbox', { name: 'Needs a follow-up' }));
    await agent.keyboard.press('Space');
    const note = wrapUp.getByRole('textbox', { name: 'Follow-up note' });
    await tabTo(agent, note);
    await agent.keyboard.type('Send the repair form');
    await tabTo(agent, wrapUp.getByRole('button', { name: 'Save wrap-up' }));
    await agent.keyboard.press('Enter');
    await expect(wrapUp.getByText('Wrap-up saved')).toBeVisible();
    await shoot(agent, 'console-wrapup');
    await expectAxeClean(agent);
    await agent.setViewportSize({ width: 390, height: 844 });
    await shoot(agent, 'console-wrapup-phone');
    await expectAxeClean(agent);
  } finally {
    await agent.context().close();
  }
});
