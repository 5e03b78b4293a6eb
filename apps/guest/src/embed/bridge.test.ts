import { describe, expect, it } from 'vitest';
import type { EmbedMessage } from '@frontdesk/protocol';
import { createStore } from '../app/store.ts';
import { chatMessageReceived } from '../features/chat/chatSlice.ts';
import { company, offlineServices } from '../test/render.tsx';
import { memoryStorage } from '../test/memoryStorage.ts';
import { keepRegistration, keptRegistration } from '../features/guestAuth/identity.ts';
import { keepTicket } from '../features/guestAuth/resumeTicket.ts';
import { startEmbedBridge } from './bridge.ts';

const SHOP = 'https://shop.example';
const OURS = 'https://frontdesk.example';

/**
 * The widget in the loader's iframe on the shop's page: a window whose parent is the shop's
 * (which keeps what it is told), and a way for a page to post to it as `origin` from `source`.
 */
function embedded(
  allowedOrigins: string[],
  parentOrigin: string | null = SHOP,
  storages: { storage?: Storage; tabStorage?: Storage } = {},
) {
  const told: { message: EmbedMessage; origin: string }[] = [];
  const parent = {
    postMessage: (message: EmbedMessage, origin: string) => told.push({ message, origin }),
  };
  const win = Object.assign(new EventTarget(), {
    parent,
    location: { origin: OURS },
    document,
  }) as unknown as Window;
  const store = createStore(
    { companyId: 12, serviceType: 'Widget', webview: false, parentOrigin },
    offlineServices(),
    { company: { details: company({ id: 12, allowedOrigins }) } } as never,
  );
  startEmbedBridge(store, win, { storage: storages.storage, tabStorage: storages.tabStorage });
  const receive = (data: unknown, origin = SHOP, source: unknown = parent) =>
    win.dispatchEvent(Object.assign(new Event('message'), { data, origin, source }));
  const agentWrites = (text: string) =>
    store.dispatch(
      chatMessageReceived({
        id: text,
        direction: 'in',
        at: new Date(0).toISOString(),
        delivery: 'delivered',
        payload: { sender: 'AGENT', to: 'guest', from: 'agent-1', message: text },
      }),
    );
  return { store, told, receive, agentWrites, messages: () => told.map((t) => t.message) };
}

describe('the embed bridge (the widget inside a company’s site)', () => {
  it('tells the allowed site it is ready, and only that origin', () => {
    const { told } = embedded([SHOP]);
    expect(told[0]).toEqual({ message: { type: 'frontdesk:ready', dir: 'ltr' }, origin: SHOP });
    expect(told.every((t) => t.origin === SHOP)).toBe(true);
  });

  it('tells the site the direction of the language it shows (the panel’s close button follows it)', () => {
    // applyBranding put Arabic's direction on the page (`?lang=ar` of a left-to-right company).
    document.documentElement.dir = 'rtl';
    try {
      expect(embedded([SHOP]).messages()[0]).toEqual({ type: 'frontdesk:ready', dir: 'rtl' });
    } finally {
      document.documentElement.dir = '';
    }
  });

  it('counts the agent’s messages while the site’s panel is closed, and clears them when opened', () => {
    const { receive, agentWrites, messages } = embedded([SHOP]);
    agentWrites('seen, the panel is open');
    receive({ type: 'frontdesk:panel', open: false });
    agentWrites('Still there?');
    agentWrites('Hello?');
    receive({ type: 'frontdesk:panel', open: true });
    expect(messages().filter((m) => m.type === 'frontdesk:unread')).toEqual([
      { type: 'frontdesk:unread', count: 1 },
      { type: 'frontdesk:unread', count: 2 },
      { type: 'frontdesk:unread', count: 0 },
    ]);
  });

  it('prefills from the site’s identify, the signed token’s answers over the plain ones', () => {
    const { store, receive } = embedded([SHOP]);
    const payload = btoa(
      JSON.stringify({ company: 12, answers: { name: 'Ada Lovelace' }, exp: 1 }),
    ).replaceAll('=', '');
    receive({
      type: 'frontdesk:identify',
      identity: { answers: { name: 'Someone', email: 'ada@example.org' }, token: `${payload}.ab` },
    });
    expect(store.getState().embed).toEqual({
      prefill: { name: 'Ada Lovelace', email: 'ada@example.org' },
      identity: `${payload}.ab`,
    });
  });

  it('ignores what another origin, another window, or a malformed message says', () => {
    const { store, receive } = embedded([SHOP]);
    const identify = { type: 'frontdesk:identify', identity: { answers: { name: 'Mallory' } } };
    receive(identify, 'https://evil.example');
    receive(identify, SHOP, { postMessage: () => undefined });
    receive({ type: 'frontdesk:identify', identity: { answers: { 'bad key': 1 } } });
    receive({ type: 'frontdesk:identify', identity: { answers: {}, extra: true } });
    expect(store.getState().embed.prefill).toBeNull();
  });

  it('forgets the guest this browser is for the company when the site shuts it down, told by that site only', () => {
    const [storage, tabStorage] = [memoryStorage(), memoryStorage()];
    const registration = {
      jabberusername: `g12-g${'a'.repeat(25)}`,
      username: `g${'a'.repeat(25)}`,
      credential: 'c'.repeat(43),
      guestRooms: [],
    };
    keepRegistration(storage, 12, registration);
    keepRegistration(storage, 5, registration);
    storage.setItem('frontdesk.guestSuffix', 'AbCdEfGh12345678');
    keepTicket(tabStorage, 12, { callId: 'g--k9Z1', categoryId: 10, callType: 'video' });
    tabStorage.setItem('frontdesk.chat.12', '[]');
    const { receive, messages } = embedded([SHOP], SHOP, { storage, tabStorage });

    receive({ type: 'frontdesk:forget' }, 'https://evil.example');
    receive({ type: 'frontdesk:forget' }, SHOP, { postMessage: () => undefined });
    expect(keptRegistration(storage, 12)).toEqual(registration);

    receive({ type: 'frontdesk:forget' });
    expect(keptRegistration(storage, 12)).toBeUndefined();
    expect(storage.getItem('frontdesk.guestSuffix')).toBeNull();
    expect(tabStorage.length).toBe(0);
    // Another company's guest is not this site's business.
    expect(keptRegistration(storage, 5)).toEqual(registration);
    expect(messages().at(-1)).toEqual({ type: 'frontdesk:forgotten' });
  });

  it('says nothing to, and takes nothing from, a site the company does not list', () => {
    const { store, told, receive } = embedded(['https://other-shop.example']);
    receive({ type: 'frontdesk:identify', identity: { answers: { name: 'Mallory' } } });
    expect(told).toEqual([]);
    expect(store.getState().embed.prefill).toBeNull();
  });
});
