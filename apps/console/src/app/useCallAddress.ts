import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAppSelector } from './hooks.ts';

/** The address of a call's view (decision 0018): `/console/calls/<callId>`. */
export const callPath = (callId: string) => `/calls/${encodeURIComponent(callId)}`;
/** The address of the queue, the workspace's view between calls. */
export const QUEUE_PATH = '/queue';

/**
 * Keeps the address on the workspace's view: a call the agent takes moves it to the call's
 * address, and the call put away moves it back to the queue, so the view can be linked and a
 * reload lands on it. A page opened on a call's address with no call in hand stays there (a
 * reload mid-call rejoins from it) and shows the queue meanwhile.
 */
export function useCallAddress(): void {
  const callId = useAppSelector((state) =>
    state.call.phase === 'idle' ? null : (state.call.call?.callId ?? null),
  );
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const hadCall = useRef(false);

  useEffect(() => {
    if (callId !== null) {
      hadCall.current = true;
      if (pathname !== callPath(callId)) void navigate(callPath(callId));
    } else if (hadCall.current) {
      hadCall.current = false;
      void navigate(QUEUE_PATH, { replace: true });
    }
  }, [callId, pathname, navigate]);
}
