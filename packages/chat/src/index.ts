export { ChatSession } from './session.ts';
export type { ChatEvents, ChatSessionOptions, JoinRoomOptions } from './session.ts';
export { ChatError } from './errors.ts';
export type * from './types.ts';
export { agentQueue, waitingGuests } from './queue.ts';
export type { GuestInQueue, WaitingGuest } from './queue.ts';
export { chatOpened, deliveryChanged, emptyConversation, messageAdded } from './conversation.ts';
export type { Conversation } from './conversation.ts';
