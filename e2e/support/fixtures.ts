import { test as base, expect } from '@playwright/test';

/**
 * A person's browser, as far as bot detection can tell: Playwright marks its pages as driven by
 * automation (`navigator.webdriver`), which the guest app rightly refuses as a bot. The bot
 * journey uses a bare context instead.
 */
export const test = base.extend({
  context: async ({ context }, use) => {
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false });
    });
    await use(context);
  },
});

export { expect };
