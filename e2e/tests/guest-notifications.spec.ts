import { expect, test } from '../support/fixtures.ts';
import { AGENT, agentPage } from '../support/console.ts';
import { walkToWaiting } from '../support/guest.ts';

declare global {
  interface Window {
    /** The test's hand on the page's visibility (another tab or app in front, or this one). */
    pageHidden: (hidden: boolean) => void;
    /** What the page showed with `new Notification(…)`, in order. */
    notificationsShown: { title: string; body: string }[];
  }
}

/**
 * spec §3 `notificationAllowed` and §4 (the `Away` rule), issue 18 item 4: a guest who allows
 * notifications and looks elsewhere while it waits is told when an agent answers. The browser's
 * own permission is granted in the context; its visibility is the test's to set, and each real
 * Notification the page makes is noted.
 */
test('a guest looking at another tab is notified when an agent answers', async ({
  page: guest,
  context,
  browser,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['notifications']);
  await context.addInitScript(() => {
    let hidden = false;
    Object.defineProperty(Document.prototype, 'visibilityState', {
      configurable: true,
      get: () => (hidden ? 'hidden' : 'visible'),
    });
    Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => hidden });
    window.pageHidden = (value) => {
      hidden = value;
      document.dispatchEvent(new Event('visibilitychange'));
    };
    const shown: { title: string; body: string }[] = [];
    window.notificationsShown = shown;
    const BrowserNotification = window.Notification;
    window.Notification = class extends BrowserNotification {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        shown.push({ title, body: options?.body ?? '' });
      }
    };
  });
  const agent = await agentPage(browser, AGENT.cy);
  try {
    await walkToWaiting(guest, {
      categoryTestId: 'category-11',
      callType: 'Video call',
      name: 'Nora Notified',
    });
    // The guest switches to another tab while it waits: nothing to tell yet.
    await guest.evaluate(() => window.pageHidden(true));
    expect(await guest.evaluate(() => window.notificationsShown)).toEqual([]);

    const row = agent.getByTestId('queue-guest').filter({ hasText: 'Nora Notified' });
    await row.getByRole('button', { name: /^Accept/ }).click();
    await expect
      .poll(() => guest.evaluate(() => window.notificationsShown))
      .toEqual([
        {
          title: 'Frontdesk Around the Clock: your call was answered',
          body: 'An agent is with you now. Come back to the call.',
        },
      ]);

    // Back on the page, the call is there.
    await guest.evaluate(() => window.pageHidden(false));
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
    await agent.getByRole('button', { name: 'End call' }).click();
    await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'rating');
    expect(await guest.evaluate(() => window.notificationsShown)).toHaveLength(1);
  } finally {
    await agent.context().close();
  }
});
