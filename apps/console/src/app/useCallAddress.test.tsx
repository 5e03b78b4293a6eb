import { act } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { ClaimedCall } from '@frontdesk/protocol';
import { callDismissed, callRejoinFailed } from '../features/call/callSlice.ts';
import { renderWithState, signedIn } from '../test/render.tsx';
import type { RootState } from './store.ts';
import { useCallAddress } from './useCallAddress.ts';

function Probe() {
  useCallAddress();
  return null;
}

/** The workspace's two views under one layout route, as in routes.tsx, with a call or none. */
function renderAt(path: string, callId: string | null) {
  const router = createMemoryRouter(
    [{ path: '/', element: <Probe />, children: [{ path: 'queue' }, { path: 'calls/:callId' }] }],
    { initialEntries: [path] },
  );
  const call = callId
    ? ({ phase: 'active', call: { callId } as ClaimedCall } as Partial<RootState['call']>)
    : ({ phase: 'idle', call: null, rejoin: null } as Partial<RootState['call']>);
  const state = { ...signedIn(), call: call as RootState['call'] };
  const { store } = renderWithState(<RouterProvider router={router} />, state);
  return { router, store };
}

describe("the address of the workspace's view", () => {
  it('names the call while it lasts, and the queue once it is put away', async () => {
    const { router, store } = renderAt('/queue', 'ab12cd+ef34');
    expect(router.state.location.pathname).toBe('/calls/ab12cd%2Bef34');
    await act(async () => {
      store.dispatch(callDismissed());
    });
    expect(router.state.location.pathname).toBe('/queue');
  });

  it('takes up the call of an address opened with no call in hand (decision 0027), and goes back to the queue when it cannot', async () => {
    const { router, store } = renderAt('/calls/ab12cd', null);
    expect(router.state.location.pathname).toBe('/calls/ab12cd');
    expect(store.getState().call.rejoin).toEqual({ callId: 'ab12cd', status: 'rejoining' });
    await act(async () => {
      store.dispatch(callRejoinFailed('The call you were in is over.'));
    });
    expect(router.state.location.pathname).toBe('/queue');
    expect(store.getState().call.rejoin).toMatchObject({ status: 'failed' });
  });
});
