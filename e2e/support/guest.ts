import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { resolve } from 'node:path';
import type { GuestStage } from '@frontdesk/protocol';

const screenshots = resolve(import.meta.dirname, '../../artifacts/screenshots');

/** The seeded companies (apps/api/src/db/seed.ts SEEDED_COMPANY), one per journey. */
export const COMPANY = {
  demo: 5,
  inactive: 6,
  outOfQuota: 7,
  blockList: 8,
  alwaysClosed: 9,
  arabic: 10,
  geofenced: 11,
  aroundTheClock: 12,
} as const;

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
