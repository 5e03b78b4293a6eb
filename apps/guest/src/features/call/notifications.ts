import type { AppStartListening } from '../../app/hooks.ts';
import { translate } from '../../i18n/messages.ts';
import { pageLanguage } from '../../i18n/useT.ts';
import { agentAccepted, notificationPermissionChanged } from './callSlice.ts';
import { startCall } from './startCall.ts';

/** The browser's notifications as the guest's call uses them (tests pass their own). */
export type GuestNotifier = {
  /** Whether the guest allows this page's notifications. */
  allowed: () => boolean;
  /** Asks the guest, unless the browser asked before; answers whether they are allowed now. */
  ask: () => Promise<boolean>;
  /** Shows `title` and `body`; choosing the notification brings the call's page forward. */
  show: (title: string, body: string) => void;
};

/** The Notification API's notifier, where the browser has one. */
export function browserNotifier(): GuestNotifier | undefined {
  if (typeof Notification === 'undefined') return undefined;
  return {
    allowed: () => Notification.permission === 'granted',
    ask: async () =>
      (Notification.permission === 'default'
        ? await Notification.requestPermission()
        : Notification.permission) === 'granted',
    show: (title, body) => {
      try {
        // One at a time: a newer one replaces the last (tag).
        const notification = new Notification(title, { body, tag: 'frontdesk-call' });
        notification.onclick = () => {
          window.focus();
          notification.close();
        };
      } catch (error) {
        // Android's Chrome shows notifications only through a service worker.
        console.warn('could not show a notification', error);
      }
    },
  };
}

/**
 * spec §3 `notificationAllowed` and §4 (the `Away` rule): the guest is asked for notifications
 * as it starts a call (a browser asks only on a person's gesture, and the click is one), and a
 * guest who looks at another tab or app while it waits is told when an agent answers.
 */
export function notificationListeners(startListening: AppStartListening): void {
  startListening({
    actionCreator: startCall.pending,
    effect: async (_action, api) => {
      const notifier = api.extra.notifier;
      if (!notifier) return;
      // Called at once, still within the guest's click.
      const asked = notifier.ask();
      api.dispatch(notificationPermissionChanged(notifier.allowed()));
      const allowed = await asked.catch((error: unknown) => {
        console.warn('could not ask for notifications', error);
        return false;
      });
      api.dispatch(notificationPermissionChanged(allowed));
    },
  });

  startListening({
    actionCreator: agentAccepted,
    effect: (_action, api) => {
      const state = api.getState();
      if (state.call.pageVisible || !state.call.notificationAllowed) return;
      const language = pageLanguage(state);
      api.extra.notifier?.show(
        translate(language, 'notifyAnsweredTitle', { company: state.company.details?.name ?? '' }),
        translate(language, 'notifyAnsweredBody'),
      );
    },
  });
}
