import AxeBuilder from '@axe-core/playwright';
import {
  expect,
  type BrowserContextOptions,
  type BrowserType,
  type LaunchOptions,
  type Page,
} from '@playwright/test';
import { likeAPerson } from './fixtures.ts';
import { resolve } from 'node:path';
import type { GuestStage } from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '@frontdesk/api/seed';

const screenshots = resolve(import.meta.dirname, '../../artifacts/screenshots');

/** The seeded companies (apps/api/src/db/seed.ts), one per journey. */
export const COMPANY = SEEDED_COMPANY;

/** Opens the guest page of a company and waits until the visit settles on `stage`. */
export async function openGuest(page: Page, companyId: number, stage: GuestStage) {
  await page.goto(`/?company=${companyId}`);
  await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', stage);
}

/**
 * What a person and a screen reader get from the current screen: a screenshot under
 * artifacts/screenshots and an axe-core audit that must find nothing serious.
 */
export async function inspectScreen(page: Page, name: string) {
  await page.screenshot({ path: `${screenshots}/${name}.png`, fullPage: true });
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}

/**
 * Waits until a `<video>` shows moving pictures: a decoded size and a frame count that keeps
 * growing (what a person sees as live video, not only that an event fired).
 */
export async function expectMovingVideo(page: Page, testId: string) {
  const video = page.getByTestId(testId);
  await expect(video).toBeVisible();
  const frames = () =>
    video.evaluate((element: HTMLVideoElement) => ({
      width: element.videoWidth,
      height: element.videoHeight,
      frames: element.getVideoPlaybackQuality().totalVideoFrames,
    }));
  await expect.poll(async () => (await frames()).width, { timeout: 15_000 }).toBeGreaterThan(0);
  const before = await frames();
  await expect
    .poll(async () => (await frames()).frames, { timeout: 10_000 })
    .toBeGreaterThan(before.frames + 5);
  return before;
}

/**
 * The guest's way from the welcome form of company 12 (the demo twin), or of a copy of it with
 * the same forms (`company`), to the waiting stage.
 */
export async function walkToWaiting(
  page: Page,
  options: {
    categoryTestId: string;
    callType: 'Video call' | 'Voice call';
    name: string;
    company?: number;
  },
) {
  await openGuest(page, options.company ?? COMPANY.aroundTheClock, 'welcome');
  await page.getByLabel(/Your name/).fill(options.name);
  await page.getByLabel(/E-mail/).fill('guest@example.org');
  await page.getByLabel(/What is it about/).selectOption('existing-order');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'preview');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByTestId(options.categoryTestId).click();
  await page.getByLabel(options.callType).check();
  await page.getByRole('button', { name: 'Start the call' }).click();
  await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'waiting');
}

/** The agent's console accepts the first guest in its queue, and the guest's call is on. */
export async function acceptFirstGuest(guest: Page, agent: Page) {
  await agent
    .getByTestId('queue-guest')
    .first()
    .getByRole('button', { name: /^Accept/ })
    .click();
  await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
}

/**
 * The guest answers "Block" to the browser's prompt for the location on the page's origin.
 */
export async function refuseLocation(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const { targetInfo } = await cdp.send('Target.getTargetInfo');
  await cdp.send('Browser.setPermission', {
    permission: { name: 'geolocation' },
    setting: 'denied',
    origin: new URL(page.url()).origin,
    ...(targetInfo.browserContextId ? { browserContextId: targetInfo.browserContextId } : {}),
  });
  await cdp.detach();
}

/**
 * A guest's page in a browser that answers the camera's prompt "Block" and the microphone's
 * "Allow". The journeys' Chromium allows every camera and microphone prompt by itself
 * (`--use-fake-ui-for-media-stream`, which no permission setting overrides), so this one runs
 * without that switch, with the microphone granted; the camera's prompt, unanswered, is refused.
 */
export async function pageRefusingCamera(
  playwright: { chromium: BrowserType },
  launchOptions: LaunchOptions,
  contextOptions: BrowserContextOptions,
) {
  const browser = await playwright.chromium.launch({
    ...launchOptions,
    args: (launchOptions.args ?? []).filter((arg) => !arg.startsWith('--use-fake-ui-for-media')),
  });
  const context = await browser.newContext(contextOptions);
  await likeAPerson(context);
  await context.grantPermissions(['microphone']);
  return { page: await context.newPage(), close: () => browser.close() };
}
