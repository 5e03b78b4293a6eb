import { describe, expect, it, vi } from 'vitest';
import {
  callRoomJid,
  QUEUE_POLL_MS,
  ROUND_ROBIN_PEER,
  routes,
  type ApiClient,
  type CallMethod,
  type CallState,
} from '@frontdesk/protocol';
import { answer, fakeApi, refusal } from '@frontdesk/protocol/testing';
import type { Occupant } from '@frontdesk/chat';
import { createStore } from '../../app/store.ts';
import {
  FAKE_CALL_CONFIG,
  fakeCallAdapters,
  FakeChat,
  FakeMedia,
  signedInGuest,
} from '../../test/fakeCall.ts';
import { callReport, company, offlineServices } from '../../test/render.tsx';
import { agentMessageSeen, guestTypingChanged, messageSent } from '../chat/chatSlice.ts';
import { hangUp, joinQueue } from './callFlow.ts';
import {
  backCameraToggled,
  microphoneChosen,
  muteClicked,
  notificationPermissionChanged,
  pageVisibilityChanged,
} from './callSlice.ts';

const GUEST = `g${'c'.repeat(25)}`;
const NICK = `g5-${GUEST}`;
const CALL_ID = `${GUEST}--k9Z1`;
const ROOM = callRoomJid(CALL_ID, 'frontdesk.localhost');
const AGENT = 'staff-1';

const report = callReport(GUEST, CALL_ID);

/** An occupant of the call's room whose presence says `state` about this guest's call. */
const occupant = (nick: string, state: 'InCall' | 'CallOnHold' | 'CallResumed'): Occupant => ({
  nick,
  status: { state, peer: NICK, callId: CALL_ID },
  waitingSince: undefined,
  show: undefined,
  self: false,
});

/** Lets every pending promise settle (the fakes answer at once; nothing waits on a clock). */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * The media-server call's state once `AGENT` has put it on hold to pass it to category 2, with
 * no agentName, as the API's transfer answers may leave it out.
 */
const transferToCategory2 = (): Omit<CallState, 'agentName'> => ({
  callId: CALL_ID,
  status: 'answered',
  callMethod: 'mediaServer',
  queue: null,
  agentJabberUsername: AGENT,
  transfer: { toAgentJabberUsername: null, toCategoryId: 2 },
});

/**
 * A signed-in guest of company 5 that joins the queue for a video call, against a fake API
 * (which says `AGENT` answered the call) and fake chat and media sessions.
 */
async function guestInQueue({
  webview = false,
  refused = [] as string[],
  /** The browser refuses the camera when the media asks for it (no preview asked before). */
  cameraRefused = false,
  /** How the add's answer says the call's media travels (decision 0045). */
  callMethod = 'mediaServer' as CallMethod,
} = {}) {
  // The call's state names the other method: the set-up takes the add's, never a question more.
  const stateMethod: CallMethod = callMethod === 'p2p' ? 'mediaServer' : 'p2p';
  const roomAccess = answer({
    room: '1234',
    pin: 'pin',
    server: 'local',
    token: `guest.${'t'.repeat(43)}`,
    recorded: false,
    iceServers: [],
  });
  const { api, requests } = fakeApi({
    [`POST /calls/${CALL_ID}/room`]: roomAccess,
    [`POST /calls/${CALL_ID}/room?webview=true`]: roomAccess,
    'GET /config': answer(FAKE_CALL_CONFIG),
    'PUT /call-report/update-timestamp': answer(report),
    'PUT /call-report/update': answer(report),
    [`GET /calls/${CALL_ID}`]: answer({
      callId: CALL_ID,
      status: 'answered',
      callMethod: stateMethod,
      queue: null,
      agentJabberUsername: AGENT,
      transfer: null,
    }),
    [`PUT /calls/${CALL_ID}/quality`]: { body: undefined },
    ...Object.fromEntries(refused.map((route) => [route, refusal(503, 'unavailable')])),
    [`POST /calls/${CALL_ID}/ice`]: answer({ iceServers: [{ urls: 'stun:turn.test:3478' }] }),
    [`POST /calls/${CALL_ID}/end`]: answer({
      callId: CALL_ID,
      status: 'ended',
      callMethod: stateMethod,
      queue: null,
      agentJabberUsername: AGENT,
      transfer: null,
    }),
  });
  const chat = new FakeChat();
  const media = new FakeMedia();
  if (cameraRefused) {
    // What @frontdesk/media's MediaError carries (the package itself brings janus.js along).
    const refusal = Object.assign(new Error('Permission denied'), { code: 'disabledCamera' });
    media.connect = () => Promise.reject(refusal);
  }
  const services = offlineServices({ api, loadCallAdapters: fakeCallAdapters(chat, media) });
  const store = createStore(
    { companyId: 5, serviceType: 'Talk', webview, parentOrigin: null },
    services,
    {
      company: { details: company() },
      guestAuth: signedInGuest(GUEST, NICK),
      report: {
        reportId: 7,
        callID: CALL_ID,
        InitialCallID: CALL_ID,
        reportInit: { isInitialized: true, isOutOfQuota: false, isGuestBlocked: false },
      },
      flow: { stage: 'selection', failure: null },
    },
  );
  // The thunk runs until the call ends; the tests act on the call it set up.
  const joining = store.dispatch(
    joinQueue({ callId: CALL_ID, callType: 'video', categoryId: 1, callMethod }),
  );
  await settled();
  // Still under way (it ends with the call), unless setting up the call failed.
  const early = await Promise.race([joining, settled().then(() => null)]);
  if (early && joinQueue.rejected.match(early)) throw new Error(early.error.message);
  return { store, services, chat, media, requests, joining };
}

describe('the call at the listener level, against fake adapters', () => {
  it('joining the queue opens the chat room with the waiting presence and publishes', async () => {
    const { store, services, chat, media } = await guestInQueue();
    expect(store.getState().flow.stage).toBe('waiting');
    expect(chat.joins).toEqual([
      {
        room: ROOM,
        options: { nick: NICK, status: { state: 'OpenCall', peer: ROUND_ROBIN_PEER } },
      },
    ]);
    expect(store.getState().chatRoom.isRoomAuthed).toEqual({ status: true, tries: 1 });
    expect(media.connected).toBe(true);
    expect(services.connections.call?.room).toBe(ROOM);
  });

  it("believes an agent's InCall presence only when the API says that agent answered", async () => {
    const { store, chat } = await guestInQueue();
    chat.occupantsChanged(ROOM, [occupant('mallory', 'InCall')]);
    await settled();
    expect(store.getState().call.agent).toBeNull();
    expect(chat.presences).toEqual([]);

    chat.occupantsChanged(ROOM, [occupant(AGENT, 'InCall')]);
    await settled();
    expect(store.getState().call.agent).toBe(AGENT);
    expect(chat.presences).toEqual([
      { room: ROOM, status: { state: 'InCall', peer: AGENT, callId: CALL_ID } },
    ]);
  });

  it("believes the agent's word at the queue's next poll when the question that confirms it failed", async () => {
    // The queue's poll waits on this clock from the start.
    vi.useFakeTimers({ toFake: ['setTimeout'], shouldAdvanceTime: true });
    try {
      const { store, services, chat } = await guestInQueue();
      const api = services.api;
      let asked = 0;
      services.api = (async (route, ...options) => {
        if (route.path === routes.callState.path) {
          asked += 1;
          if (asked === 1) throw new Error('no replica answered');
        }
        return api(route, ...options);
      }) as ApiClient;
      chat.occupantsChanged(ROOM, [occupant(AGENT, 'InCall')]);
      await vi.advanceTimersByTimeAsync(0);
      expect([asked, store.getState().call.agent]).toEqual([1, null]);
      // The agent says InCall once: without its claim kept for the next poll the guest would wait on.
      await vi.advanceTimersByTimeAsync(QUEUE_POLL_MS);
      expect(store.getState().call.agent).toBe(AGENT);
      expect(chat.presences).toEqual([
        { room: ROOM, status: { state: 'InCall', peer: AGENT, callId: CALL_ID } },
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('never believes an answered call of an agent that did not claim it in the room', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'], shouldAdvanceTime: true });
    try {
      const { store, chat } = await guestInQueue();
      // The API answers AGENT; only mallory said InCall: the queue's polls accept nobody.
      chat.occupantsChanged(ROOM, [occupant('mallory', 'InCall')]);
      await vi.advanceTimersByTimeAsync(2 * QUEUE_POLL_MS);
      expect(store.getState().call.agent).toBeNull();
      expect(chat.presences).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says Away while an Android phone hides the waiting page without notifications, once per change', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Mobile Safari/537.36',
    );
    try {
      const { store, chat } = await guestInQueue();
      store.dispatch(pageVisibilityChanged(false));
      store.dispatch(pageVisibilityChanged(false));
      store.dispatch(notificationPermissionChanged(true));
      store.dispatch(pageVisibilityChanged(true));
      await settled();
      expect(chat.presences.map((p) => p.status)).toEqual([
        { state: 'Away', peer: ROUND_ROBIN_PEER },
        { state: 'OpenCall', peer: ROUND_ROBIN_PEER },
      ]);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('keeps saying InCall when the page hides or notifications change between the claim and the media', async () => {
    const { store, chat } = await guestInQueue();
    chat.occupantsChanged(ROOM, [occupant(AGENT, 'InCall')]);
    await settled();
    // The agent's claim is confirmed; its media has not arrived, so the stage still waits.
    expect(store.getState().flow.stage).toBe('waiting');
    const inCall = { room: ROOM, status: { state: 'InCall', peer: AGENT, callId: CALL_ID } };
    expect(chat.presences.at(-1)).toEqual(inCall);

    store.dispatch(pageVisibilityChanged(true));
    store.dispatch(notificationPermissionChanged(true));
    store.dispatch(pageVisibilityChanged(false));
    await settled();
    // Said once, never taken back by the queue's presence.
    expect(chat.presences).toEqual([inCall]);
  });

  it('hands the media the controls the guest dispatches', async () => {
    const { store, media } = await guestInQueue();
    store.dispatch(muteClicked({ kind: 'audio', muted: true }));
    store.dispatch(backCameraToggled());
    store.dispatch(microphoneChosen('mic-2'));
    await settled();
    expect(media.calls).toEqual([
      ['setMuted', 'audio', true],
      ['switchCamera', { facingMode: 'environment' }],
      ['switchMicrophone', 'mic-2'],
    ]);
    expect(store.getState().call.deviceConfigChanged).toBe(true);
  });

  it("sends the guest's message to the agent of the call", async () => {
    const { store, chat } = await guestInQueue();
    store.dispatch(messageSent('hello')); // no agent yet, nobody wrote: nobody to send it to
    chat.occupantsChanged(ROOM, [occupant(AGENT, 'InCall')]);
    await settled();
    store.dispatch(messageSent('hello'));
    expect(chat.sent).toEqual([{ to: AGENT, message: 'hello' }]);
  });

  it("keeps only the confirmed agent's messages in the guest's chat", async () => {
    const { store, chat } = await guestInQueue();
    const incoming = (from: string, message: string) => ({
      id: `${from}-${message}`,
      direction: 'in' as const,
      at: new Date(0).toISOString(),
      delivery: 'delivered' as const,
      payload: { sender: 'AGENT' as const, to: NICK, from, message },
    });
    chat.occupantsChanged(ROOM, [occupant(AGENT, 'InCall')]);
    await settled();
    chat.emit('message', incoming('mallory', 'click here'));
    chat.emit('message', incoming(AGENT, 'hello'));
    expect(store.getState().chat.chatMessages.map((m) => m.payload.message)).toEqual(['hello']);
    expect(store.getState().chat.unreadMessages).toBe(1);
  });

  it('shows the agent typing, tells it the guest types, and marks its messages read (XEP-0085, XEP-0333)', async () => {
    const { store, chat } = await guestInQueue();
    chat.occupantsChanged(ROOM, [occupant(AGENT, 'InCall')]);
    await settled();
    // Only the call's agent's typing counts.
    chat.emit('chatState', { from: 'mallory', state: 'composing' });
    expect(store.getState().chat.agentTyping).toBe(false);
    chat.emit('chatState', { from: AGENT, state: 'composing' });
    expect(store.getState().chat.agentTyping).toBe(true);
    const record = {
      id: 'a1',
      direction: 'in' as const,
      at: new Date(0).toISOString(),
      delivery: 'delivered' as const,
      payload: { sender: 'AGENT' as const, to: NICK, from: AGENT, message: 'hi' },
    };
    chat.emit('message', record);
    expect(store.getState().chat.agentTyping).toBe(false);

    store.dispatch(guestTypingChanged('composing'));
    expect(chat.chatStates).toEqual([{ to: AGENT, state: 'composing' }]);
    store.dispatch(agentMessageSeen(record));
    expect(chat.displayed).toEqual(['a1']);
  });

  it("asks for a room a native app's webview can decode only when the page says it is one", async () => {
    for (const webview of [false, true]) {
      const { media, requests } = await guestInQueue({ webview });
      expect(media.p2pOptions).toBeUndefined();
      await media.options?.room();
      const asked = requests.filter((r) => r.route.startsWith(`POST /calls/${CALL_ID}/room`));
      expect(asked.map((r) => r.route)).toEqual([
        `POST /calls/${CALL_ID}/room${webview ? '?webview=true' : ''}`,
      ]);
    }
  });

  it('a p2p call answers its agent over the chat, and takes no room of the media server', async () => {
    const { store, chat, media, requests } = await guestInQueue({ callMethod: 'p2p' });
    expect(media.options).toBeUndefined();
    expect(media.p2pOptions).toMatchObject({
      callId: CALL_ID,
      role: 'answerer',
      callType: 'video',
    });
    expect(media.p2pOptions?.signalling).toBe(chat);
    expect(media.connected).toBe(true);
    // No server records it: the call screen must not say it is recorded.
    expect(store.getState().call.recorded).toBe(false);
    await expect(media.p2pOptions?.iceServers()).resolves.toEqual([
      { urls: 'stun:turn.test:3478' },
    ]);
    // SECURITY: no peer until the API confirmed the occupant that says it took the call.
    expect(media.peer).toBeUndefined();
    chat.occupantsChanged(ROOM, [occupant(AGENT, 'InCall')]);
    await settled();
    expect(media.peer).toBe(AGENT);
    expect(requests.some((r) => r.route.startsWith(`POST /calls/${CALL_ID}/room`))).toBe(false);
  });

  it("a p2p call's peer is never an occupant the API did not name", async () => {
    const { chat, media } = await guestInQueue({ callMethod: 'p2p' });
    chat.occupantsChanged(ROOM, [occupant('staff-9', 'InCall')]);
    await settled();
    expect(media.peer).toBeUndefined();
  });

  it('hanging up ends both the chat and the media, and reports the call abandoned', async () => {
    const { store, services, chat, media, requests, joining } = await guestInQueue();
    await store.dispatch(hangUp());
    // The flow that was waiting for the call's end ends too, without an error.
    expect(joinQueue.fulfilled.match(await joining)).toBe(true);
    expect(chat.ended).toEqual([ROOM]);
    expect(media.closed).toBe(true);
    expect(chat.closed).toBe(true);
    expect(services.connections.call).toBeNull();
    expect(requests).toContainEqual({
      route: `POST /calls/${CALL_ID}/end`,
      body: { reason: 'abandoned' },
    });
    expect(store.getState().flow.stage).toBe('abandoned');
  });

  it('a guest who hangs up has abandoned the call, also when the room’s end reaches the media first', async () => {
    const { store, services, media, joining } = await guestInQueue();
    const api = services.api;
    // The API destroys the Janus room as it ends the call, and Janus tells the media at once:
    // the room's end can arrive before the API's answer.
    services.api = (async (route, ...options) => {
      const answered = await api(route, ...options);
      if (route.path === routes.endCall.path) {
        media.emit('state', { ...media.state, status: 'closed', endReason: 'roomDestroyed' });
      }
      return answered;
    }) as ApiClient;
    await store.dispatch(hangUp());
    expect(joinQueue.fulfilled.match(await joining)).toBe(true);
    await settled();
    expect(store.getState().flow.stage).toBe('abandoned');
  });

  describe("the call's quality report", () => {
    const QUALITY = `PUT /calls/${CALL_ID}/quality`;

    /** A guest whose call `AGENT` took (the API confirmed it). */
    async function answeredCall() {
      const queued = await guestInQueue();
      queued.chat.occupantsChanged(ROOM, [occupant(AGENT, 'InCall')]);
      await settled();
      expect(queued.store.getState().call.agent).toBe(AGENT);
      return queued;
    }

    it("sends the media's figures once when the guest hangs up, measured before the media closes", async () => {
      const { store, media, requests } = await answeredCall();
      // The set-up time counts from the agent's word.
      expect(media.acceptedAt).toBeGreaterThan(0);
      await store.dispatch(hangUp());
      await settled();
      expect(requests.filter((r) => r.route === QUALITY)).toEqual([
        { route: QUALITY, body: media.quality },
      ]);
      expect(media.qualityAsked).toEqual([{ closed: false }]);
      // Measured before the API ended the call (which destroys the media room).
      const order = requests.map((r) => r.route);
      expect(order.indexOf(QUALITY)).toBeLessThan(order.indexOf(`POST /calls/${CALL_ID}/end`));
      expect(store.getState().flow.stage).toBe('rating');
    });

    it('sends it once when the agent ends the call', async () => {
      const { media, requests, joining } = await answeredCall();
      // The agent's hang-up destroys the room: the media ends by itself.
      media.emit('state', { ...media.state, status: 'closed', endReason: 'roomDestroyed' });
      await joining;
      await settled();
      expect(requests.filter((r) => r.route === QUALITY)).toEqual([
        { route: QUALITY, body: media.quality },
      ]);
      expect(media.closed).toBe(true);
    });

    it('sends it when ICE fails, and again, once, at the end', async () => {
      const { store, media, requests } = await answeredCall();
      media.emit('iceFailed', { direction: 'subscribe', localSdp: null, remoteSdp: null });
      await settled();
      expect(requests.filter((r) => r.route === QUALITY)).toHaveLength(1);
      await store.dispatch(hangUp());
      await settled();
      expect(requests.filter((r) => r.route === QUALITY)).toHaveLength(2);
    });

    it('sends none for a call no agent took', async () => {
      const { store, media, requests } = await guestInQueue();
      await store.dispatch(hangUp());
      expect(requests.map((r) => r.route)).not.toContain(QUALITY);
      expect(media.qualityAsked).toEqual([]);
    });

    it('a refused report does not keep the guest in the call', async () => {
      const { store, services, chat, media } = await answeredCall();
      const api = services.api;
      services.api = (async (route, ...options) => {
        if (route.path === routes.callQuality.path) throw new Error('network down');
        return api(route, ...options);
      }) as ApiClient;
      await store.dispatch(hangUp());
      await settled();
      expect(media.closed).toBe(true);
      expect(chat.closed).toBe(true);
      expect(store.getState().flow.stage).toBe('rating');
    });
  });
});

describe('spec items of issue 18 at the listener level', () => {
  /** A guest whose call `AGENT` took (the API confirmed it) and whose media arrived. */
  async function callUnderWay() {
    const queued = await guestInQueue();
    queued.chat.occupantsChanged(ROOM, [occupant(AGENT, 'InCall')]);
    await settled();
    const feed = {
      janusId: '11',
      display: AGENT,
      onlyAudio: false,
      audioMuted: false,
      videoMuted: false,
    };
    queued.media.emit('state', {
      ...queued.media.state,
      status: 'connected',
      feeds: [feed],
      streamsReady: { local: true, remote: true },
      peerCall: 'Resumed',
      peerVideo: 'Resumed',
    });
    expect(queued.store.getState().flow.stage).toBe('ongoing');
    return { ...queued, feed };
  }

  it('stamps the start of the call with keepalive, so it outlives a page closed at once', async () => {
    const { requests } = await guestInQueue();
    expect(requests).toContainEqual({
      route: 'PUT /call-report/update-timestamp',
      body: { call_id: CALL_ID, call_initiated_timestamp: true },
      keepalive: true,
    });
  });

  it('logs a report the API refused and still puts the guest in the queue (spec §8)', async () => {
    const warnings: unknown[][] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args);
    try {
      const { store, media } = await guestInQueue({
        refused: ['PUT /call-report/update', 'PUT /call-report/update-timestamp'],
      });
      // Not left on the selection page's "Starting the call…".
      expect(store.getState().flow.stage).toBe('waiting');
      expect(media.connected).toBe(true);
      expect(warnings.map(([what]) => what)).toEqual(
        expect.arrayContaining([
          'could not stamp the start of the call',
          'could not record the type of the call',
        ]),
      );
    } finally {
      console.warn = warn;
    }
  });

  it('a camera refused as the call sets up says so, not that the browser cannot call', async () => {
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      const { store, services, chat, media, requests, joining } = await guestInQueue({
        cameraRefused: true,
      });
      expect(joinQueue.fulfilled.match(await joining)).toBe(true);
      // The preview's refusal: stage unsupported, whose page offers a voice call (NoticePage).
      expect(store.getState().flow).toEqual({ stage: 'unsupported', failure: null });
      expect(store.getState().browserCheck.failurePage).toBe('disabledCamera');
      // The call no agent took ends as left, and is no bug of ours.
      expect(requests).toContainEqual(
        expect.objectContaining({
          route: `POST /calls/${CALL_ID}/end`,
          body: { reason: 'abandoned' },
        }),
      );
      expect(requests.map((request) => request.route)).not.toContain('POST /call-bug/by-guest');
      expect([media.closed, chat.closed, services.connections.call]).toEqual([true, true, null]);
    } finally {
      console.warn = warn;
    }
  });

  // The transfer of a held call is learnt at once, or a poll later when the first question
  // failed (it is asked again while the hold lasts): a transfer the API then refuses (hold-call)
  // ends on the failed stage, not on a dead call screen.
  it.each([
    ['at once', 0],
    ['asked again after a failed question', 1],
  ])(
    'a transfer learnt %s that the API refuses ends on the failed stage, not on a dead call screen',
    async (_when, failedQuestions) => {
      const { store, services, chat, media, joining } = await callUnderWay();
      const api = services.api;
      let asked = 0;
      services.api = (async (route, ...options) => {
        if (route.path === routes.callState.path) {
          asked += 1;
          if (asked <= failedQuestions) throw new Error('network down');
          return { data: transferToCategory2() };
        }
        if (route.path === routes.holdCall.path) throw new Error('refused');
        return api(route, ...options);
      }) as ApiClient;
      const [warn, error] = [console.warn, console.error];
      console.warn = console.error = () => undefined;
      vi.useFakeTimers({ toFake: ['setTimeout'] });
      try {
        chat.occupantsChanged(ROOM, [occupant(AGENT, 'CallOnHold')]);
        await vi.advanceTimersByTimeAsync(0);
        expect(asked).toBe(1);
        if (failedQuestions > 0) {
          expect(store.getState().call.onHold).toBe(true);
          // The next question, a poll later, finds the transfer: the guest follows it.
          await vi.advanceTimersByTimeAsync(QUEUE_POLL_MS);
          expect(asked).toBe(2);
        }
        expect(joinQueue.fulfilled.match(await joining)).toBe(true);
      } finally {
        vi.useRealTimers();
        [console.warn, console.error] = [warn, error];
      }
      expect(store.getState().flow).toEqual({ stage: 'failed', failure: 'transferFailed' });
      expect([media.closed, chat.closed, services.connections.call]).toEqual([true, true, null]);
    },
  );

  it("sets a transfer's next leg up as hold-call's answer says, not as the first leg went", async () => {
    const { store, services, chat, media } = await callUnderWay();
    expect(media.options).toBeDefined();
    // A media-server call whose room (not asked of the fake media) has not said it records.
    expect(store.getState().call.recorded).toBeNull();
    const api = services.api;
    services.api = (async (route, ...options) => {
      const [{ params } = {}] = options as [{ params?: { callId?: string } }?];
      if (route.path === routes.callState.path && params?.callId === CALL_ID) {
        return { data: transferToCategory2() };
      }
      // The new leg is a new call: the API made it p2p (the company's setting now).
      if (route.path === routes.holdCall.path) return { data: { id: 8, callMethod: 'p2p' } };
      if (route.path === routes.endCall.path || route.path === routes.callState.path) {
        throw new Error('not asked of this test');
      }
      return api(route, ...options);
    }) as ApiClient;
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      chat.occupantsChanged(ROOM, [occupant(AGENT, 'CallOnHold')]);
      await vi.waitFor(() => expect(media.p2pOptions).toBeDefined());
    } finally {
      console.warn = warn;
    }
    const next = store.getState().report.callID;
    expect(next).not.toBe(CALL_ID);
    expect(media.p2pOptions).toMatchObject({ callId: next, role: 'answerer' });
    expect(media.p2pOptions?.signalling).toBe(chat);
    // No server records the p2p leg: the call screen must not say it is recorded.
    expect(store.getState().call.recorded).toBe(false);
    expect(store.getState().flow.stage).toBe('waiting');
  });

  it("counts a hold each time the peer's call turns Paused, not when our own media reconnects", async () => {
    const { store, chat, media, feed } = await callUnderWay();
    const call = () => store.getState().call;
    expect(call()).toMatchObject({ peerCall: 'Resumed', OnHoldCount: 0 });
    expect(call().peers).toHaveLength(1);

    // The agent holds the call: its media stays in the room but stops; the peer's call pauses.
    chat.occupantsChanged(ROOM, [occupant(AGENT, 'CallOnHold')]);
    await settled();
    expect(call()).toMatchObject({ peerCall: 'Paused', OnHoldCount: 1, peers: [] });
    const silent = { ...feed, audioMuted: true, videoMuted: true };
    media.emit('state', {
      ...media.state,
      status: 'connected',
      feeds: [silent],
      peerCall: 'Resumed',
    });
    expect(call()).toMatchObject({ peerCall: 'Paused', OnHoldCount: 1, mutedAudioJIDs: [] });

    chat.occupantsChanged(ROOM, [occupant(AGENT, 'CallResumed')]);
    await settled();
    expect(call()).toMatchObject({ peerCall: 'Resumed', OnHoldCount: 1 });
    expect(call().peers).toHaveLength(1);

    // Our own media reconnecting drops the agent's feed for a while: that is no hold.
    media.emit('state', { ...media.state, status: 'reconnecting', feeds: [], peerCall: 'Paused' });
    media.emit('state', {
      ...media.state,
      status: 'connected',
      feeds: [feed],
      peerCall: 'Resumed',
    });
    expect(call()).toMatchObject({ peerCall: 'Resumed', OnHoldCount: 1 });

    // The agent's media leaves the room while ours is up: the peer's call turned Paused.
    media.emit('state', { ...media.state, status: 'connected', feeds: [], peerCall: 'Paused' });
    expect(call()).toMatchObject({ peerCall: 'Paused', OnHoldCount: 2, peers: [] });
  });
});
