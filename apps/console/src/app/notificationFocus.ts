import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useAppSelector } from './hooks.ts';
import { callPath, QUEUE_PATH } from './useCallAddress.ts';

/** The event a clicked desktop notification sends its own tab (issue 19 item 3). */
const FOCUS_EVENT = 'frontdesk:notification-focus';

/** What a notification announced: a guest waiting (its nick in the call's room). */
export type NotificationFocus = { guestNick?: string };

/**
 * A click on `notification` brings its tab to the front (`window.focus()`, which a notification
 * click is allowed to do) and tells the console to show what it announced
 * ({@link useNotificationFocus}); the notification closes.
 */
export function focusOnClick(
  notification: Pick<Notification, 'onclick' | 'close'>,
  focus: NotificationFocus,
  target: Window = window,
): void {
  notification.onclick = (event) => {
    event.preventDefault();
    target.focus();
    notification.close();
    target.dispatchEvent(new CustomEvent<NotificationFocus>(FOCUS_EVENT, { detail: focus }));
  };
}

/**
 * Where a clicked notification takes the agent: the call in hand, if any
 * (`/console/calls/<id>`); otherwise the queue, with the announced guest's Accept button
 * focused, so Enter takes the call.
 */
export function useNotificationFocus(): void {
  const navigate = useNavigate();
  const callId = useAppSelector((state) =>
    state.call.phase === 'idle' ? null : (state.call.call?.callId ?? null),
  );

  useEffect(() => {
    const onFocus = (event: Event) => {
      if (callId !== null) {
        void navigate(callPath(callId));
        return;
      }
      void navigate(QUEUE_PATH);
      const nick = (event as CustomEvent<NotificationFocus>).detail?.guestNick;
      if (!nick) return;
      // The queue draws once the route changed.
      requestAnimationFrame(() => {
        const rows = document.querySelectorAll<HTMLElement>('[data-testid="queue-guest"]');
        const row = [...rows].find((element) => element.dataset.guest === nick);
        row?.querySelector<HTMLElement>('button')?.focus();
      });
    };
    window.addEventListener(FOCUS_EVENT, onFocus);
    return () => window.removeEventListener(FOCUS_EVENT, onFocus);
  }, [callId, navigate]);
}
