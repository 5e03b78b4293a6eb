import { expect, type Locator, type Page } from '@playwright/test';
import { inspectScreen } from './guest.ts';

/** The screens a guest calls from (issue 18): a phone upright and sideways, and a desktop. */
export const SCREENS = {
  phone: { width: 390, height: 844 },
  landscape: { width: 844, height: 390 },
  desktop: { width: 1280, height: 800 },
} as const;
export type ScreenName = keyof typeof SCREENS;

/** True when the middle of `target` is `target` itself for a pointer: nothing lies over it. */
function uncovered(target: Locator) {
  return target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return hit !== null && element.contains(hit);
  });
}

/**
 * The share of the agent's picture (or the voice call's avatar) a person still sees: points of a
 * grid over it where nothing else (a panel, the guest's own inset) lies on top.
 */
function visibleShare(target: Locator) {
  return target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    let seen = 0;
    let points = 0;
    for (let i = 1; i < 10; i++) {
      for (let j = 1; j < 10; j++) {
        const x = box.x + (box.width * i) / 10;
        const y = box.y + (box.height * j) / 10;
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
        points++;
        const hit = document.elementFromPoint(x, y);
        if (hit && (element === hit || element.contains(hit))) seen++;
      }
    }
    return points === 0 ? 0 : seen / 81;
  });
}

/**
 * On the current screen size: the page does not scroll, and each of the call's controls, named
 * as `names` in this order (the accessible names a screen reader announces), lies wholly inside
 * the viewport with nothing over it.
 */
export async function expectControlsInView(page: Page, names: (string | RegExp)[]) {
  const toolbar = page.getByRole('toolbar');
  const buttons = toolbar.getByRole('button');
  await expect(buttons).toHaveCount(names.length);
  for (const [index, name] of names.entries()) {
    const button = buttons.nth(index);
    await expect(button).toHaveAccessibleName(name);
    await expect(button).toBeInViewport({ ratio: 1 });
    expect(await uncovered(button), `control ${String(name)} is covered`).toBe(true);
  }
  const viewport = page.viewportSize();
  await expect
    .poll(() =>
      page.evaluate(() => ({
        height: document.documentElement.scrollHeight,
        width: document.documentElement.scrollWidth,
      })),
    )
    .toEqual({ height: viewport?.height, width: viewport?.width });
}

/**
 * Opens the chat from its control and proves it lies over or beside the call: the panel is in
 * the viewport, at least a quarter of the agent's picture (`remote`) is still in sight, and the
 * controls stay where they were. Leaves the chat open.
 */
export async function expectChatBesideCall(
  page: Page,
  remote: Locator,
  names: (string | RegExp)[],
) {
  const toggle = page.getByTestId('chat-toggle');
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  const panel = page.getByRole('region', { name: /^(Chat|الدردشة)$/ });
  await expect(panel).toBeInViewport({ ratio: 1 });
  await expect(page.getByLabel(/^(Message|الرسالة)$/)).toBeInViewport({ ratio: 1 });
  await expect(remote).toBeVisible();
  expect(await visibleShare(remote)).toBeGreaterThanOrEqual(1 / 4);
  await expectControlsInView(page, names);
}

/**
 * The call screen on each screen size: controls in view with the chat closed and open, a
 * screenshot of each (artifacts/screenshots/`name`-`screen`[-chat].png) and axe, chat closed
 * again at the end.
 */
export async function checkCallScreens(
  page: Page,
  options: { name: string; remote: Locator; controls: (string | RegExp)[] },
) {
  for (const screen of Object.keys(SCREENS) as ScreenName[]) {
    await page.setViewportSize(SCREENS[screen]);
    await expectControlsInView(page, options.controls);
    await inspectScreen(page, `${options.name}-${screen}`);
    await expectChatBesideCall(page, options.remote, options.controls);
    await inspectScreen(page, `${options.name}-${screen}-chat`);
    await page.getByTestId('chat-toggle').click();
    await expect(page.getByTestId('chat-messages')).toHaveCount(0);
  }
}
