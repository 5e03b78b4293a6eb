import { act } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { ClaimedCall } from '@frontdesk/protocol';
import { renderWithState, signedIn } from '../test/render.tsx';
import { focusOnClick, useNotificationFocus } from './notificationFocus.ts';
import type { RootState } from './store.ts';

const GUEST = 'g12-guest';

function Probe() {
  useNotificationFocus();
  return <Outlet />;
}

/** The queue as the workspace draws it: the guest's row, its Accept button first. */
function Queue() {
  return (
    <ul>
      <li data-testid="queue-guest" data-guest={GUEST}>
        <button type="button">Accept</button>
        <button type="button">Chat</button>
      </li>
    </ul>
  );
}

/** The console on `path` (the agent's reports, say), with a call in hand or none. */
function consoleAt(path: string, callId: string | null) {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: <Probe />,
        children: [
          { path: 'queue', element: <Queue /> },
          { path: 'calls/:callId' },
          { path: 'reports' },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  const call = callId
    ? { phase: 'active', call: { callId } as ClaimedCall, rejoin: null }
    : { phase: 'idle', call: null, rejoin: null };
  renderWithState(<RouterProvider router={router} />, {
    ...signedIn(),
    call: call as unknown as RootState['call'],
  });
  return router;
}

/** A desktop notification as the browser hands it to the page, clicked by the test. */
function clickedNotification(guestNick: string) {
  const notification = { onclick: null as Notification['onclick'], close: vi.fn() };
  focusOnClick(notification, { guestNick });
  const focus = vi.spyOn(window, 'focus').mockImplementation(() => undefined);
  const click = new Event('click', { cancelable: true });
  act(() => {
    notification.onclick?.call(notification as unknown as Notification, click);
  });
  return { notification, focus, click };
}

describe('clicking the desktop notification of a new guest (issue 19 item 3)', () => {
  it('brings the tab to the front and shows the guest in the queue, its Accept button focused', async () => {
    const router = consoleAt('/reports', null);
    const { notification, focus, click } = clickedNotification(GUEST);
    expect(focus).toHaveBeenCalled();
    expect(notification.close).toHaveBeenCalled();
    // The browser's own handling (focusing some window of its choice) is not wanted.
    expect(click.defaultPrevented).toBe(true);
    expect(router.state.location.pathname).toBe('/queue');
    await vi.waitFor(() => expect(document.activeElement?.textContent).toBe('Accept'));
  });

  it('during a call, brings the agent back to the call', () => {
    const router = consoleAt('/reports', 'ab12cd');
    const { focus } = clickedNotification(GUEST);
    expect(focus).toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/calls/ab12cd');
  });
});
