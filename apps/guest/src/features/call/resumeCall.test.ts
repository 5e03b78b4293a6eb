import { afterEach, describe, expect, it, vi } from 'vitest';
import { callRoomJid, type CallMethod } from '@frontdesk/protocol';
import { answer, fakeApi } from '@frontdesk/protocol/testing';
import type { ChatMessageRecord } from '@frontdesk/chat';
import { createStore } from '../../app/store.ts';
import {
  FAKE_CALL_CONFIG,
  fakeCallAdapters,
  fakeCallServices,
  FakeChat,
  FakeMedia,
  signedInGuest,
} from '../../test/fakeCall.ts';
import { fakeLocks } from '../../test/fakeLocks.ts';
import { memoryStorage } from '../../test/memoryStorage.ts';
import { company, offlineServices } from '../../test/render.tsx';
import { callResumeFound } from '../flow/flowSlice.ts';
import { keepChat, keepTicket } from '../guestAuth/resumeTicket.ts';
import { claimCall } from './callClaim.ts';
import { resumeCall } from './resumeCall.ts';

const GUEST = `g${'r'.repeat(25)}`;
const NICK = `g5-${GUEST}`;
const CALL_ID = `${GUEST}--k9Z1`;
const ROOM = callRoomJid(CALL_ID, 'frontdesk.localhost');
const AGENT = 'staff-1';
const ticket = { callId: CALL_ID, categoryId: 1, callType: 'video' as const };

/** Lets every pending promise settle (the fakes answer at once; nothing waits on a clock). */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

const message = (id: string, direction: 'in' | 'out', text: string): ChatMessageRecord => ({
  id,
  direction,
  at: '2026-11-26T10:00:00.000Z',
  delivery: 'delivered',
  payload: {
    sender: direction === 'in' ? 'AGENT' : 'GUEST',
    from: direction === 'in' ? AGENT : NICK,
    to: direction === 'in' ? NICK : AGENT,
    message: text,
  },
});

/** A reloaded tab of company 5 whose session storage holds `chat` beside its call's ticket. */
async function reloadedTab(
  chat: ChatMessageRecord[],
  { resume = true, callMethod = 'mediaServer' as CallMethod } = {},
) {
  const { api, requests } = fakeApi({
    [`POST /calls/${CALL_ID}/resume`]: answer({
      callId: CALL_ID,
      reportId: 7,
      originCallId: CALL_ID,
      status: 'answered',
      categoryId: 1,
      callType: 'video',
      callMethod,
      createdAt: new Date().toISOString(),
      agentJabberUsername: AGENT,
      waitingFor: null,
      services: fakeCallServices(NICK),
    }),
    // No `GET /calls/:callId`: the resume's answer says how the call's media travels.
    'GET /config': answer(FAKE_CALL_CONFIG),
    [`POST /calls/${CALL_ID}/room`]: answer({
      room: '1234',
      pin: 'pin',
      server: 'local',
      token: `guest.${'t'.repeat(43)}`,
      recorded: false,
      iceServers: [],
    }),
  });
  const tabStorage = memoryStorage();
  keepTicket(tabStorage, 5, ticket);
  keepChat(tabStorage, 5, chat);
  const chatSession = new FakeChat();
  const media = new FakeMedia();
  const store = createStore(
    { companyId: 5, serviceType: 'Talk', webview: false, parentOrigin: null },
    offlineServices({ api, tabStorage, loadCallAdapters: fakeCallAdapters(chatSession, media) }),
    {
      company: { details: company() },
      guestAuth: signedInGuest(GUEST, NICK),
    },
  );
  if (resume) {
    expect(await store.dispatch(resumeCall({ ...ticket, savedAt: Date.now() })).unwrap()).toBe(
      true,
    );
    await settled();
  }
  return { store, chat: chatSession, media, tabStorage, requests };
}

describe('a reload mid-call (decision 0025)', () => {
  it('shows the chat of the call again, each message once, and keeps what comes after', async () => {
    const before = [message('m2', 'in', 'Your parcel left today'), message('m1', 'out', 'Hi')];
    const { store, chat, media, requests, tabStorage } = await reloadedTab(before);
    expect(store.getState().flow.stage).toBe('ongoing');
    expect(chat.joins.map((join) => join.room)).toEqual([ROOM]);
    // A media-server call, as the resume's answer said: its room comes from the API.
    expect(media.p2pOptions).toBeUndefined();
    await media.options?.room();
    expect(requests.map((r) => r.route)).toContain(`POST /calls/${CALL_ID}/room`);
    expect(store.getState().chat.chatMessages).toEqual(before);
    expect(store.getState().chat.unreadMessages).toBe(0);

    // The chat session hands over a message the page already shows: it stays one message.
    chat.emit('message', before[0] as ChatMessageRecord);
    const after = message('m3', 'in', 'Anything else?');
    chat.emit('message', after);
    expect(store.getState().chat.chatMessages).toEqual([after, ...before]);
    // The tab keeps the chat as it is now, for the next reload.
    expect(JSON.parse(tabStorage.getItem('frontdesk.chat.5') ?? '[]')).toEqual([after, ...before]);
  });

  it('a p2p call takes its agent as the peer again at once: the API named it before', async () => {
    const { store, chat, media, requests } = await reloadedTab([], { callMethod: 'p2p' });
    expect(media.p2pOptions).toMatchObject({ callId: CALL_ID, role: 'answerer' });
    expect(media.p2pOptions?.signalling).toBe(chat);
    expect(media.peer).toBe(AGENT);
    expect(requests.some((r) => r.route === `POST /calls/${CALL_ID}/room`)).toBe(false);
    expect(store.getState().call.recorded).toBe(false);
  });

  describe('in a tab the browser duplicated', () => {
    afterEach(() => vi.unstubAllGlobals());

    it('stays out of the call the first tab has open, says so, and forgets its copy', async () => {
      vi.stubGlobal('navigator', { ...navigator, locks: fakeLocks() });
      // The first tab has the call open.
      expect(await claimCall(CALL_ID, 0)).not.toBeNull();
      const copy = await reloadedTab([message('m1', 'out', 'Hi')], { resume: false });
      copy.store.dispatch(callResumeFound({ ...ticket, savedAt: Date.now() }));
      await vi.waitFor(() => expect(copy.store.getState().flow.stage).toBe('elsewhere'), {
        timeout: 10_000,
      });
      expect(copy.requests).toEqual([]);
      expect(copy.chat.joins).toEqual([]);
      expect(copy.tabStorage.length).toBe(0);
    });
  });
});
