import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import e2eConfig from '../../../e2e/playwright.config.ts';

/** Debian's Chromium with exactly the flags and user agent the end-to-end suite uses. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(e2eConfig.use?.launchOptions);
}

/**
 * A fresh context that looks like a person's browser: a regular user agent and
 * `navigator.webdriver` false, or the guest app's bot detection refuses the page.
 */
export async function newGuestContext(browser: Browser, baseURL?: string): Promise<BrowserContext> {
  const userAgent = e2eConfig.use?.userAgent;
  const context = await browser.newContext({
    ...(userAgent ? { userAgent } : {}),
    ...(baseURL ? { baseURL } : {}),
  });
  // A string, not a function: tsx's esbuild wraps named arrow functions in a `__name` helper that
  // does not exist in the page, and the script would throw there unseen.
  await context.addInitScript(
    "Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false });",
  );
  return context;
}
