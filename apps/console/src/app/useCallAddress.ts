import { useEffect, useRef } from 'react';
import { useLocation, useMatch, useNavigate } from 'react-router';
import { callRejoinRequested } from '../features/call/callSlice.ts';
import { useAppDispatch, useAppSelector } from './hooks.ts';

/** The address of a call's view (decision 0018): `/console/calls/<callId>`. */
export const callPath = (callId: string) => `/calls/${encodeURIComponent(callId)}`;
/** The address of the queue, the workspace's view between calls. */
export const QUEUE_PATH = '/queue';

/**
 * Keeps the address on the workspace's view: a call the agent takes moves it to the call's
 * address, and the call put away moves it back to the queue, so the view can be linked and a
 * reload lands on it. A page opened on a call's address with no call in hand takes that call up
 * again (decision 0027: the API says whether this agent still holds it) and shows the queue
 * meanwhile; when it cannot, the address goes back to the queue.
 */
export function useCallAddress(): void {
  const dispatch = useAppDispatch();
  const callId = useAppSelector((state) =>
    state.call.phase === 'idle' ? null : (state.call.call?.callId ?? null),
  );
  const rejoin = useAppSelector((state) => state.call.rejoin);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const addressedCall = useMatch('/calls/:callId')?.params.callId;
  const hadCall = useRef(false);
  const askedRejoin = useRef(false);

  useEffect(() => {
    if (callId !== null) {
      hadCall.current = true;
      if (pathname !== callPath(callId)) void navigate(callPath(callId));
    } else if (hadCall.current) {
      hadCall.current = false;
      void navigate(QUEUE_PATH, { replace: true });
    }
  }, [callId, pathname, navigate]);

  // Once per page: the call the page was opened on.
  useEffect(() => {
    if (askedRejoin.current || callId !== null || !addressedCall) return;
    askedRejoin.current = true;
    dispatch(callRejoinRequested(addressedCall));
  }, [addressedCall, callId, dispatch]);

  useEffect(() => {
    if (rejoin?.status === 'failed' && callId === null && addressedCall === rejoin.callId) {
      void navigate(QUEUE_PATH, { replace: true });
    }
  }, [rejoin, callId, addressedCall, navigate]);
}
