import { useEffect, useMemo } from 'react';
import { TypingNotifier } from '@frontdesk/chat/typing';
import { useAppDispatch } from '../../app/hooks.ts';
import { typingChanged } from './chatSlice.ts';

/**
 * Tells the guest `peer` when the agent types, pauses or is done (XEP-0085) through
 * {@link TypingNotifier}; leaving the conversation pauses.
 */
export function useTypingNotice(peer: string | null): TypingNotifier {
  const dispatch = useAppDispatch();
  const notifier = useMemo(
    () =>
      new TypingNotifier((state) => {
        if (peer) dispatch(typingChanged({ to: peer, state }));
      }),
    [dispatch, peer],
  );
  useEffect(() => () => notifier.paused(), [notifier]);
  return notifier;
}
