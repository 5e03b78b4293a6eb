import { embedHostMessageSchema, type EmbedMessage } from '@frontdesk/protocol';
import type { GuestServices } from '../app/services.ts';
import type { AppStore } from '../app/store.ts';
import { forgetGuest } from '../features/guestAuth/identity.ts';
import { forgetTicket } from '../features/guestAuth/resumeTicket.ts';
import { identified } from './embedSlice.ts';

/**
 * The widget's side of the embed (decision 0021), when the loader's iframe holds it: tells the
 * host page it is ready, each stage, and how many agent messages came while the host's panel was
 * closed (the launcher's badge); takes the host's identify (the welcome form's prefill), the
 * panel's open state, and its shutdown's forget (what this browser kept of the guest, in
 * `storages`). Nothing runs outside a frame or without `?parent=`.
 */
export function startEmbedBridge(
  store: AppStore,
  win: Window = window,
  storages: Pick<GuestServices, 'storage' | 'tabStorage'> = { storage: undefined },
): void {
  const { parentOrigin } = store.getState().page;
  if (!parentOrigin || win.parent === win) return;
  // SECURITY: `?parent=` is whatever the framing page wrote; it counts only when the company
  // lists it in allowedOrigins or it is our own (postMessage's target then makes sure that
  // origin is still the one framing us, and `event.source` that a message came from it).
  const parentAllowed = () => {
    const allowed = store.getState().company.details?.allowedOrigins ?? [];
    return parentOrigin === win.location.origin || allowed.includes(parentOrigin);
  };
  const tellParent = (message: EmbedMessage) => {
    if (parentAllowed()) win.parent.postMessage(message, parentOrigin);
  };

  let panelOpen = true;
  let seenIncoming = 0;
  let unread = 0;
  const incoming = () =>
    store.getState().chat.chatMessages.filter((message) => message.direction === 'in').length;
  const countUnread = () => {
    const count = incoming();
    if (panelOpen) seenIncoming = count;
    const next = count - seenIncoming;
    if (next !== unread) tellParent({ type: 'frontdesk:unread', count: next });
    unread = next;
  };

  win.addEventListener('message', (event: MessageEvent) => {
    if (event.source !== win.parent || event.origin !== parentOrigin || !parentAllowed()) return;
    const message = embedHostMessageSchema.safeParse(event.data);
    if (!message.success) return;
    if (message.data.type === 'frontdesk:identify') {
      store.dispatch(identified(message.data.identity));
    } else if (message.data.type === 'frontdesk:forget') {
      // The host removes (or reloads) this frame once told: the page's state goes with it.
      const { companyId } = store.getState().page;
      forgetGuest(storages.storage, companyId);
      forgetTicket(storages.tabStorage, companyId);
      tellParent({ type: 'frontdesk:forgotten' });
    } else {
      panelOpen = message.data.open;
      countUnread();
    }
  });

  // The company (and with it allowedOrigins) loads first; until then the parent is not told.
  let ready = false;
  let stage = store.getState().flow.stage;
  const onChange = () => {
    if (!ready && parentAllowed()) {
      ready = true;
      // applyBranding put the shown language's direction on the document before the company loaded.
      const dir = win.document.documentElement.dir === 'rtl' ? 'rtl' : 'ltr';
      tellParent({ type: 'frontdesk:ready', dir });
      tellParent({ type: 'frontdesk:stage', stage });
    }
    const next = store.getState().flow.stage;
    if (next !== stage) {
      stage = next;
      tellParent({ type: 'frontdesk:stage', stage });
    }
    countUnread();
  };
  store.subscribe(onChange);
  onChange();

  // Escape closes the host page's panel, unless a dialog of ours is open to take it.
  win.document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || win.document.querySelector('[role="alertdialog"]')) return;
    tellParent({ type: 'frontdesk:close' });
  });
}
