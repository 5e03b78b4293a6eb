import { test as base, expect, type BrowserContext } from '@playwright/test';

/**
 * A person's browser, as far as bot detection can tell: Playwright marks its pages as driven by
 * automation (`navigator.webdriver`), which the guest app rightly refuses as a bot. The bot
 * journey uses a bare context instead.
 */
export async function likeAPerson(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false });
  });
}

export const test = base.extend({
  context: async ({ context }, use) => {
    await likeAPerson(context);
    await use(context);
  },
});

export { expect };
