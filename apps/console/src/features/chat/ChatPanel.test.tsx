import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessageRecord, ChatSession, TypingState } from '@frontdesk/chat';
import { ApiRequestError, type ApiClient, type ChatFile } from '@frontdesk/protocol';
import { Connections } from '../../app/connections.ts';
import type { RootState } from '../../app/store.ts';
import {
  answer,
  claimedCall,
  fakeApi,
  renderWithState,
  signedIn,
  unreachable,
} from '../../test/render.tsx';
import { callSlice } from '../call/callSlice.ts';
import { currentToasts, dismissToast } from '../../ui/toast.ts';
import { ChatPanel, formatMessageTime } from './ChatPanel.tsx';
import {
  chatSlice,
  conversationOpened,
  messageDeliveryChanged,
  messageReceived,
  peerTypingChanged,
} from './chatSlice.ts';

afterEach(cleanup);

const GUEST = 'g12-visitor-abc123';
const AGENT = 'staff-1';

let nextId = 0;
function record(
  direction: 'in' | 'out',
  message: string | ChatFile,
  at = new Date().toISOString(),
): ChatMessageRecord {
  nextId += 1;
  return {
    id: `m${nextId}`,
    direction,
    at,
    delivery: direction === 'in' ? 'delivered' : 'sending',
    payload: {
      sender: direction === 'in' ? 'GUEST' : 'AGENT',
      from: direction === 'in' ? GUEST : AGENT,
      to: direction === 'in' ? AGENT : GUEST,
      message,
    },
  };
}

/** The chat session as far as the panel's listeners use it: what they ask is recorded. */
function recordingChat() {
  const states: { to: string; state: TypingState }[] = [];
  const displayed: string[] = [];
  const sent: { to: string; message: unknown }[] = [];
  const chat = {
    sendChatState: (to: string, state: TypingState) => states.push({ to, state }),
    markDisplayed: (seen: ChatMessageRecord) => displayed.push(seen.id),
    sendMessage: (to: string, message: unknown) => {
      sent.push({ to, message });
      return record('out', 'x');
    },
  };
  const connections = new Connections();
  connections.chat = chat as unknown as ChatSession;
  return { connections, states, displayed, sent };
}

function chatWith(...records: ChatMessageRecord[]): Partial<RootState> {
  let chat = chatSlice.reducer(undefined, conversationOpened(GUEST));
  for (const each of records) chat = chatSlice.reducer(chat, messageReceived(each));
  return { ...signedIn(), chat };
}

const CALL = claimedCall('c', { guestJabberUsername: GUEST });

/** The call state of a console in a call with the guest `guestNick`. */
function inCallWith(guestNick: string): RootState['call'] {
  return {
    ...callSlice.getInitialState(),
    phase: 'active',
    call: { ...CALL, guestJabberUsername: guestNick },
  };
}

const REPLIES = [
  { id: 1, title: 'Greeting', shortcut: 'hi', text: 'Hello, how can I help?', updatedAt: '' },
  { id: 2, title: 'Opening hours', shortcut: 'hours', text: 'We are open 8 to 8.', updatedAt: '' },
  { id: 3, title: 'Thanks', shortcut: 'thanks', text: 'Thank you for calling.', updatedAt: '' },
];

/** The API as the chat asks it: the company's canned replies, and `upload` for files. */
function chatApi(upload?: ApiClient): ApiClient {
  const { api: replies } = fakeApi({ 'GET /company/12/canned-replies': answer(REPLIES) });
  return ((route: { path: string }, options: unknown) =>
    route.path.includes('canned-replies')
      ? replies(route as never, options as never)
      : (upload ?? unreachable)(route as never, options as never)) as unknown as ApiClient;
}

function renderChat(state: Partial<RootState>, upload?: ApiClient) {
  const recorded = recordingChat();
  const rendered = renderWithState(<ChatPanel />, state, {
    connections: recorded.connections,
    api: chatApi(upload),
  });
  return { ...rendered, ...recorded };
}

describe('the agent’s chat', () => {
  it('dates every message in the agent’s language and zone, an older one with its day', () => {
    const now = new Date(2026, 10, 26, 15, 4);
    expect(formatMessageTime(new Date(2026, 10, 26, 9, 7).toISOString(), now)).toBe('09:07');
    expect(formatMessageTime(new Date(2026, 10, 20, 18, 30).toISOString(), now)).toBe(
      '20 Nov 2026, 18:30',
    );
    const earlier = record('in', 'Hello', new Date(2020, 0, 2, 8, 15).toISOString());
    renderChat(chatWith(earlier));
    const time = screen.getByText('2 Jan 2020, 08:15');
    expect(time.tagName).toBe('TIME');
    expect(time.getAttribute('datetime')).toBe(earlier.at);
  });

  it('shows how far the agent’s message got: sending, delivered, read', () => {
    const mine = record('out', 'We can help');
    const { store } = renderChat(chatWith(mine));
    const delivery = () => screen.getByTestId('delivery').textContent;
    expect(delivery()).toContain('sending');
    act(() => {
      store.dispatch(messageDeliveryChanged({ id: mine.id, delivery: 'delivered' }));
    });
    expect(delivery()).toContain('delivered');
    act(() => {
      store.dispatch(messageDeliveryChanged({ id: mine.id, delivery: 'read' }));
    });
    expect(delivery()).toContain('read');
  });

  it('shows the guest typing until it pauses or its message arrives', () => {
    const { store } = renderChat(chatWith());
    const typing = screen.getByTestId('guest-typing');
    expect(typing.textContent).toBe('');
    act(() => {
      store.dispatch(peerTypingChanged({ from: GUEST, state: 'composing' }));
    });
    expect(typing.textContent).toBe('Guest ABC123 is typing…');
    act(() => {
      store.dispatch(peerTypingChanged({ from: GUEST, state: 'paused' }));
    });
    expect(typing.textContent).toBe('');
    act(() => {
      store.dispatch(peerTypingChanged({ from: GUEST, state: 'composing' }));
      store.dispatch(messageReceived(record('in', 'Here it is')));
    });
    expect(typing.textContent).toBe('');
  });

  it('tells the guest the agent types, pauses and sends, and that its newest message was read', () => {
    vi.useFakeTimers();
    try {
      const older = record('in', 'First');
      const newest = record('in', 'Second');
      const { states, displayed, sent } = renderChat(chatWith(older, newest));
      expect(displayed).toEqual([newest.id]);
      const box = screen.getByRole('combobox', { name: 'Message' });
      fireEvent.change(box, { target: { value: 'Let me' } });
      fireEvent.change(box, { target: { value: 'Let me check' } });
      expect(states).toEqual([{ to: GUEST, state: 'composing' }]);
      act(() => vi.advanceTimersByTime(5000));
      expect(states.at(-1)).toEqual({ to: GUEST, state: 'paused' });
      fireEvent.change(box, { target: { value: 'Let me check that' } });
      fireEvent.submit(box);
      expect(sent).toEqual([{ to: GUEST, message: 'Let me check that' }]);
      // The message itself says `active`: no separate notice, and no pause after it.
      act(() => vi.advanceTimersByTime(10_000));
      expect(states.map((s) => s.state)).toEqual(['composing', 'paused', 'composing']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows files as cards: an image as its thumbnail, a document with its name, kind and size', () => {
    const image = {
      url: '/api/files/aaaaaaaaaaaaaaaaaaaaaa',
      name: 'meter.jpg',
      size: 245_000,
      type: 'image/jpeg',
    };
    const pdf = {
      url: '/api/files/bbbbbbbbbbbbbbbbbbbbbb',
      name: 'contract.pdf',
      size: 3_400_000,
      type: 'application/pdf',
    };
    renderChat(chatWith(record('in', image), record('out', pdf)));
    const [imageCard, pdfCard] = screen.getAllByTestId('file-card');
    expect(imageCard?.querySelector('img')?.getAttribute('src')).toBe(image.url);
    expect(imageCard?.textContent).toContain('Image · 239 kB');
    expect(pdfCard?.getAttribute('href')).toBe(pdf.url);
    expect(pdfCard?.textContent).toBe('contract.pdfDocument · 3.2 MB');
  });

  it('uploads a pasted file with its progress, then sends it as a file message', async () => {
    let finish: () => void = () => undefined;
    const api = (async (_route: unknown, options: { onUploadProgress: (f: number) => void }) => {
      options.onUploadProgress(0.4);
      await new Promise<void>((resolve) => (finish = resolve));
      return {
        data: { fileUrl: '/api/files/cccccccccccccccccccccc', contentType: 'image/png', size: 5 },
      };
    }) as unknown as ApiClient;
    const { sent } = renderChat(chatWith(), api);
    const file = new File(['hello'], 'screen.png', { type: 'image/png' });
    fireEvent.paste(screen.getByRole('combobox', { name: 'Message' }), {
      clipboardData: { files: [file] },
    });
    const bar = await screen.findByRole('progressbar', { name: 'Uploading screen.png' });
    expect(bar.getAttribute('value')).toBe('0.4');
    await act(async () => finish());
    expect(sent).toEqual([
      {
        to: GUEST,
        message: {
          url: '/api/files/cccccccccccccccccccccc',
          name: 'screen.png',
          size: 5,
          type: 'image/png',
        },
      },
    ]);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('names the file’s call when it goes to the guest of the call in progress, no call otherwise', async () => {
    const forms: FormData[] = [];
    const api = (async (_route: unknown, options: { form: FormData }) => {
      forms.push(options.form);
      return {
        data: { fileUrl: '/api/files/dddddddddddddddddddddd', contentType: 'image/png', size: 5 },
      };
    }) as unknown as ApiClient;
    const paste = async () => {
      const file = new File(['hello'], 'screen.png', { type: 'image/png' });
      fireEvent.paste(screen.getByRole('combobox', { name: 'Message' }), {
        clipboardData: { files: [file] },
      });
      await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
    };
    const { sent } = renderChat({ ...chatWith(), call: inCallWith(GUEST) }, api);
    await paste();
    expect(sent).toHaveLength(1);
    cleanup();
    // Before the guest is taken (a waiting guest's chat), and with another guest in the call.
    renderChat(chatWith(), api);
    await paste();
    cleanup();
    renderChat({ ...chatWith(), call: inCallWith('g12-other-fff999') }, api);
    await paste();
    expect(forms.map((form) => [form.get('companyId'), form.get('callId')])).toEqual([
      ['12', CALL.callId],
      ['12', null],
      ['12', null],
    ]);
  });

  it('says why a file was refused, and forgets it at the next action or conversation', async () => {
    const api = (async () => {
      throw new ApiRequestError(415, 'unsupported_type', 'Files of this type are not accepted.');
    }) as unknown as ApiClient;
    const { store } = renderChat(chatWith(), api);
    const drop = (file: File) =>
      fireEvent.drop(screen.getByTestId('chat-panel'), {
        dataTransfer: { files: [file], types: ['Files'] },
      });

    drop(new File(['x'], 'tool.exe', { type: 'application/x-msdownload' }));
    expect((await screen.findByTestId('chat-problem')).textContent).toContain(
      'The file could not be sent: Files of this type are not accepted.',
    );
    // Typing is the next action.
    fireEvent.change(screen.getByRole('combobox', { name: 'Message' }), { target: { value: 'h' } });
    expect(screen.queryByTestId('chat-problem')).toBeNull();

    // Too large: refused before it travels, with the limit.
    const big = new File(['x'], 'film.mp4', { type: 'video/mp4' });
    Object.defineProperty(big, 'size', { value: 60 * 1024 * 1024 });
    drop(big);
    expect((await screen.findByTestId('chat-problem')).textContent).toContain(
      'film.mp4 is too large: files of this kind may be at most 50 MB.',
    );
    // Another conversation (the next call) starts without it.
    act(() => {
      store.dispatch(conversationOpened('g12-other-def456'));
    });
    expect(store.getState().chat.upload).toBeNull();
    expect(screen.queryByTestId('chat-problem')).toBeNull();
  });

  it('inserts a canned reply: `/` and part of its shortcut or title, arrows and Enter, or a click', async () => {
    const { sent } = renderChat(chatWith());
    const box = screen.getByRole('combobox', { name: 'Message' });
    fireEvent.change(box, { target: { value: '/h' } });
    const options = await screen.findAllByRole('option');
    // Shortcuts that start with it first, then titles and shortcuts that hold it.
    expect(options.map((o) => o.textContent)).toEqual([
      '/hi GreetingHello, how can I help?',
      '/hours Opening hoursWe are open 8 to 8.',
      '/thanks ThanksThank you for calling.',
    ]);
    expect(box.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box.getAttribute('aria-activedescendant')).toBe(options[1]?.id);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box).toHaveProperty('value', 'We are open 8 to 8.');
    expect(screen.queryByRole('listbox')).toBeNull();
    fireEvent.submit(box);
    expect(sent).toEqual([{ to: GUEST, message: 'We are open 8 to 8.' }]);

    // The Replies button opens the whole list; a click inserts; Escape closes it.
    fireEvent.click(screen.getByRole('button', { name: 'Replies' }));
    expect(screen.getAllByRole('option')).toHaveLength(3);
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    fireEvent.change(box, { target: { value: '/than' } });
    fireEvent.click(screen.getByRole('option', { name: /Thanks/ }));
    expect(box).toHaveProperty('value', 'Thank you for calling.');
    fireEvent.change(box, { target: { value: '/nothing' } });
    expect(screen.getByRole('listbox').textContent).toBe('No reply matches.');
  });

  it('says in a toast when the canned replies could not be loaded, and the chat works on', async () => {
    const api = (async () => {
      throw new ApiRequestError(0, 'network', 'The server could not be reached.');
    }) as unknown as ApiClient;
    renderWithState(<ChatPanel />, chatWith(), { connections: recordingChat().connections, api });
    await vi.waitFor(() =>
      expect(currentToasts().map((toast) => toast.message)).toEqual([
        'The canned replies could not be loaded: The server could not be reached.',
      ]),
    );
    for (const toast of currentToasts()) dismissToast(toast.id);
    expect(screen.queryByTestId('chat-problem')).toBeNull();
  });
});
