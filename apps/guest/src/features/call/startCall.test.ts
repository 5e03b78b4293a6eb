import { describe, expect, it, vi } from 'vitest';
import { ApiRequestError, CALL_REFUSAL_STAGES, type CallRefusalCode } from '@frontdesk/protocol';
import { answer, fakeApi } from '@frontdesk/protocol/testing';
import { createStore } from '../../app/store.ts';
import {
  FAKE_CALL_CONFIG,
  fakeCallAdapters,
  fakeCallServices,
  FakeChat,
  FakeMedia,
} from '../../test/fakeCall.ts';
import { callReport, guestOnSelection, offlineServices } from '../../test/render.tsx';
import { startCall } from './startCall.ts';

/** A public guest username as registration makes them. */
const GUEST = `g${'a'.repeat(25)}`;

/** A signed-in guest on the selection stage whose API answers every request with `error`. */
function guestFacing(error: Error) {
  const refusing = (): never => {
    throw error;
  };
  return createStore(
    { companyId: 5, serviceType: 'Talk', webview: false, parentOrigin: null },
    offlineServices({ api: refusing }),
    guestOnSelection(GUEST),
  );
}

describe('startCall', () => {
  it.each(Object.entries(CALL_REFUSAL_STAGES) as [CallRefusalCode, string][])(
    "shows the API's refusal %s as the stage %s",
    async (code, stage) => {
      const store = guestFacing(new ApiRequestError(403, code, 'refused'));
      await store.dispatch(startCall({ categoryId: 1, callType: 'video' }));
      expect(store.getState().flow.stage).toBe(stage);
    },
  );

  it('leaves any other failure to the page, which offers to try again', async () => {
    const store = guestFacing(new ApiRequestError(0, 'network', 'unreachable'));
    const result = await store.dispatch(startCall({ categoryId: 1, callType: 'video' }));
    expect(startCall.rejected.match(result)).toBe(true);
    expect(store.getState().flow.stage).toBe('selection');
  });
});

describe('startCall, spec items of issue 18', () => {
  /** A signed-in guest on the selection stage, against a fake API that answers `add` with `added`. */
  function guestWith(added: object, { webview = false } = {}) {
    const { api, requests } = fakeApi({ 'POST /call-report/add': answer(added) });
    const store = createStore(
      { companyId: 5, serviceType: 'Talk', webview, parentOrigin: null },
      offlineServices({ api }),
      guestOnSelection(GUEST),
    );
    return { store, requests };
  }

  it("tells the API when the page is a native app's webview, so its room is H.264 whoever opens it", async () => {
    for (const webview of [false, true]) {
      const { store, requests } = guestWith(
        { status: 'blocked', id: 3, callMethod: 'mediaServer' },
        { webview },
      );
      await store.dispatch(startCall({ categoryId: 1, callType: 'video' }));
      const [add] = requests;
      expect(add?.body).toMatchObject({ company: 5, category_id: 1 });
      expect((add?.body as { webview?: boolean }).webview).toBe(webview ? true : undefined);
    }
  });

  it('a call let through that cannot be set up ends on the failed stage, not on "Starting the call…"', async () => {
    // Let through, but without the chat credentials a call needs.
    const { store } = guestWith({ status: 'ok', id: 3, callMethod: 'mediaServer' });
    const error = console.error;
    console.error = () => undefined;
    try {
      await store.dispatch(startCall({ categoryId: 1, callType: 'video' }));
      await new Promise((resolve) => setTimeout(resolve, 0));
    } finally {
      console.error = error;
    }
    expect(store.getState().flow.stage).toBe('failed');
  });
});

describe("startCall sets the call up as the add's answer says (decision 0045)", () => {
  /** A guest whose call the API lets through as a `callMethod` call, against fake adapters. */
  async function startedCall(callMethod: 'mediaServer' | 'p2p') {
    const { api, requests } = fakeApi({
      'POST /call-report/add': answer({
        status: 'ok',
        id: 3,
        services: fakeCallServices(`5-${GUEST}`),
        callMethod,
      }),
      'GET /config': answer(FAKE_CALL_CONFIG),
      'PUT /call-report/update-timestamp': answer(callReport(GUEST, `${GUEST}--x`)),
      'PUT /call-report/update': answer(callReport(GUEST, `${GUEST}--x`)),
    });
    const chat = new FakeChat();
    const media = new FakeMedia();
    const store = createStore(
      { companyId: 5, serviceType: 'Talk', webview: false, parentOrigin: null },
      offlineServices({ api, loadCallAdapters: fakeCallAdapters(chat, media) }),
      guestOnSelection(GUEST),
    );
    await store.dispatch(startCall({ categoryId: 1, callType: 'video' }));
    await vi.waitFor(() => expect(media.connected).toBe(true));
    return { store, chat, media, requests };
  }

  it('a p2p call answers the agent with the chat as its signalling, and asks for no room', async () => {
    const { store, chat, media, requests } = await startedCall('p2p');
    expect(media.options).toBeUndefined();
    expect(media.p2pOptions).toMatchObject({ callId: store.getState().report.callID });
    expect(media.p2pOptions).toMatchObject({ role: 'answerer', callType: 'video' });
    expect(media.p2pOptions?.signalling).toBe(chat);
    expect(store.getState().call.recorded).toBe(false);
    expect(requests.map((r) => r.route)).not.toContainEqual(expect.stringMatching(/\/room/));
  });

  it("a media-server call takes the media server's room", async () => {
    const { store, media } = await startedCall('mediaServer');
    expect(media.p2pOptions).toBeUndefined();
    expect(media.options?.server).toBe(FAKE_CALL_CONFIG.janusWebsocketUrl);
    expect(store.getState().call.recorded).toBeNull();
  });
});
