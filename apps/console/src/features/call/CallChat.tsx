import { useAppSelector } from '../../app/hooks.ts';
import { ChatPanel } from '../chat/ChatPanel.tsx';
import { useCallGuestName } from './CallTitle.tsx';

/** The workspace's chat: the call's guest named in it as the call's heading names it. */
export function CallChat() {
  const call = useAppSelector((state) => state.call.call);
  const name = useCallGuestName(call);
  return <ChatPanel callGuest={call ? { nick: call.guestJabberUsername, name } : null} />;
}
