import { authListeners } from '../features/auth/authListeners.ts';
import { availabilityListeners } from '../features/availability/availabilityListeners.ts';
import { callChatListeners } from '../features/call/callChat.ts';
import { callListeners } from '../features/call/callListeners.ts';
import { notesAutosaveListeners } from '../features/call/notesAutosave.ts';
import { chatListeners } from '../features/chat/chatListeners.ts';
import { queueListeners } from '../features/queue/queueListeners.ts';
import { ringingListeners } from '../features/queue/ringing.ts';
import type { AppStartListening } from './hooks.ts';

/** Every feature's side effects, registered on one store's listener middleware. */
export function startListeners(startListening: AppStartListening): void {
  authListeners(startListening);
  availabilityListeners(startListening);
  queueListeners(startListening);
  ringingListeners(startListening);
  chatListeners(startListening);
  callListeners(startListening);
  callChatListeners(startListening);
  notesAutosaveListeners(startListening);
}
