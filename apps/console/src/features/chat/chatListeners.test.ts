import { ChatError, type ChatSession } from '@frontdesk/chat';
import { describe, expect, it, vi } from 'vitest';
import { Connections } from '../../app/connections.ts';
import type { ConsoleServices } from '../../app/services.ts';
import { createStore } from '../../app/store.ts';
import { answer, clockCompany, fakeApi, signedIn } from '../../test/render.tsx';
import { workspaceLoaded } from '../auth/authSlice.ts';

/** A chat session that connects at once and lets the test raise its events. */
function fakeChat() {
  const handlers = new Map<string, (value: unknown) => void>();
  const close = vi.fn(async () => undefined);
  const session = {
    username: 'staff-1',
    on: (event: string, handler: (value: unknown) => void) => handlers.set(event, handler),
    setAvailability: () => undefined,
    connect: async () => undefined,
    joinRoom: async () => undefined,
    close,
  };
  const emit = (event: string, value: unknown) => handlers.get(event)?.(value);
  return { session, emit, close };
}

/** A signed-in console whose workspace has just loaded, over {@link fakeChat}. */
async function consoleWithChat() {
  const chat = fakeChat();
  const { api } = fakeApi({
    // What the loaded workspace asks besides; not the subject here.
    'PUT /staff/me/availability': { body: undefined },
    'GET /staff': answer([]),
  });
  const services: ConsoleServices = {
    api,
    downloadFile: () => new Promise(() => undefined),
    loadChat: async () =>
      ({
        ChatSession: function ChatSession() {
          return chat.session;
        },
      }) as unknown as Awaited<ReturnType<ConsoleServices['loadChat']>>,
    loadMedia: () => new Promise(() => undefined),
    connections: new Connections(),
    ringer: { ring: () => undefined },
  };
  const state = signedIn();
  const store = createStore(services, state);
  const config = state.auth.config;
  if (!config) throw new Error('signedIn() has a config');
  store.dispatch(workspaceLoaded({ company: clockCompany, config }));
  await vi.waitFor(() =>
    expect(services.connections.chat).toBe(chat.session as unknown as ChatSession),
  );
  return { store, chat };
}

describe('the console’s chat', () => {
  it('signs the whole console out when the API ends the member’s chat (deactivated)', async () => {
    const { store, chat } = await consoleWithChat();
    chat.emit('error', new ChatError('signed-out', 'policy-violation'));
    expect(store.getState().auth.status).toBe('signedOut');
    expect(store.getState().auth.error).toBe('Your session has ended: sign in again.');
    expect(store.getState().auth.login).toBeNull();
    await vi.waitFor(() => expect(chat.close).toHaveBeenCalled());
  });

  it('keeps the console signed in for any other chat failure, and says what failed', async () => {
    const { store, chat } = await consoleWithChat();
    chat.emit('error', new ChatError('replaced', 'conflict'));
    expect(store.getState().auth.status).toBe('ready');
    expect(store.getState().chat.error).toBe(new ChatError('replaced').userMessage);
  });
});
