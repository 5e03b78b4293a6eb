import type { ChatSession, RoomSnapshot } from '@frontdesk/chat';
import type { P2pSessionOptions } from '@frontdesk/media';
import type {
  CallQualityBody,
  ChatMessage,
  ClaimedCall,
  PresenceStatus,
} from '@frontdesk/protocol';
import { describe, expect, it, vi } from 'vitest';
import { Connections } from '../../app/connections.ts';
import type { ConsoleServices } from '../../app/services.ts';
import { createStore } from '../../app/store.ts';
import { answer, fakeApi, refusal, signedIn, type FakeAnswer } from '../../test/render.tsx';
import { chatStatusChanged, messageReceived } from '../chat/chatSlice.ts';
import { callClaimed, roomChanged } from '../queue/queueSlice.ts';
import { callEnded, callRejoinRequested, endClicked } from './callSlice.ts';

const GUEST = `g${'b'.repeat(25)}`;
const CALL_ID = `${GUEST}--call2`;
const ROOM = `${CALL_ID}@conference.frontdesk.localhost`;
const QUALITY = `PUT /calls/${CALL_ID}/quality`;

const call: ClaimedCall = {
  callId: CALL_ID,
  reportId: 9,
  guestUsername: GUEST,
  guestJabberUsername: `g12-${GUEST}`,
  categoryId: 40,
  callType: 'video',
  callMethod: 'mediaServer',
  room: {
    room: CALL_ID,
    pin: 'pin',
    server: 'local',
    token: `agent.${'t'.repeat(43)}`,
    recorded: false,
    iceServers: [],
  },
  answeredAt: '2026-11-27T02:00:00.000Z',
};

/** What the agent's media measured: a call relayed over TCP after an ICE failure. */
const figures: CallQualityBody = {
  setupMs: 2_410,
  localCandidateType: 'relay',
  remoteCandidateType: 'host',
  relayProtocol: 'tcp',
  packetsReceived: 8_020,
  packetsLost: 310,
  jitterMs: 24.8,
  roundTripMs: 212.5,
  sendKbps: 402.3,
  receiveKbps: 388.9,
  reconnects: 2,
  iceFailed: true,
};

/** A media session that the test drives: its events, and what the console asked of it. */
function fakeMedia() {
  const handlers = new Map<string, (payload: unknown) => void>();
  const session = {
    /** Whether the console made it as a p2p call's media, with what (decision 0045). */
    p2p: null as P2pSessionOptions | null,
    setPeer: vi.fn(),
    on: (event: string, handler: (payload: unknown) => void) => {
      handlers.set(event, handler);
      return () => handlers.delete(event);
    },
    connect: async () => undefined,
    setOnHold: vi.fn(async () => undefined),
    qualityReport: vi.fn(async () => figures),
    close: vi.fn(async () => undefined),
  };
  return { session, emit: (event: string, payload: unknown) => handlers.get(event)?.(payload) };
}

/** Ada's console with its chat up, the API answering `answers`, the media a {@link fakeMedia}. */
function agentConsole(answers: Record<string, FakeAnswer>) {
  const media = fakeMedia();
  const { api, requests } = fakeApi(answers);
  const connections = new Connections();
  const presences: PresenceStatus[] = [];
  connections.chat = {
    username: 'staff-1',
    room: () => ({ joined: true }),
    setPresence: (_room: string, status: PresenceStatus) => presences.push(status),
    setAvailability: () => undefined,
    leaveRoom: async () => undefined,
  } as unknown as ChatSession;
  const services: ConsoleServices = {
    api,
    downloadFile: () => new Promise(() => undefined),
    loadChat: () => new Promise(() => undefined),
    loadMedia: async () =>
      ({
        createMediaSession: () => media.session,
        createP2pSession: (options: P2pSessionOptions) => {
          media.session.p2p = options;
          return media.session;
        },
        playStream: async () => undefined,
      }) as unknown as Awaited<ReturnType<ConsoleServices['loadMedia']>>,
    connections,
    ringer: { ring: () => undefined },
  };
  const store = createStore(services, signedIn());
  return { store, media, requests, connections, presences };
}

/** Ada has just taken `call`: the listeners open its media over {@link fakeMedia}. */
async function agentInCall() {
  const agent = agentConsole({
    [QUALITY]: { body: undefined },
    [`GET /calls/${CALL_ID}`]: answer({
      callId: CALL_ID,
      status: 'ended',
      callMethod: 'mediaServer',
      queue: null,
      agentJabberUsername: 'staff-1',
      transfer: null,
    }),
  });
  agent.store.dispatch(callClaimed({ call, roomJid: ROOM }));
  await vi.waitFor(() => expect(agent.connections.media).toBeDefined());
  return agent;
}

describe('a p2p call (decision 0045)', () => {
  it("offers to the call's guest over the chat, and says goodbye as the call ended", async () => {
    const agent = agentConsole({
      [`POST /calls/${CALL_ID}/ice`]: answer({ iceServers: [{ urls: 'stun:turn.test:3478' }] }),
      [`POST /calls/${CALL_ID}/end`]: answer({
        callId: CALL_ID,
        status: 'ended',
        callMethod: 'p2p',
        queue: null,
        agentJabberUsername: 'staff-1',
        transfer: null,
      }),
      [QUALITY]: { body: undefined },
    });
    const { session } = agent.media;
    agent.store.dispatch(
      callClaimed({ call: { ...call, callMethod: 'p2p', room: null }, roomJid: ROOM }),
    );
    await vi.waitFor(() => expect(agent.connections.media).toBeDefined());
    expect(session.p2p).toMatchObject({ callId: CALL_ID, role: 'offerer', callType: 'video' });
    expect(session.p2p?.signalling).toBe(agent.connections.chat);
    // SECURITY: its signals go to, and count from, the call's guest only.
    expect(session.setPeer).toHaveBeenCalledWith(call.guestJabberUsername);
    await expect(session.p2p?.iceServers()).resolves.toEqual([{ urls: 'stun:turn.test:3478' }]);
    // No media server is asked for a room: a p2p call has none.
    expect(agent.requests.some((r) => r.route.endsWith('/room'))).toBe(false);

    agent.store.dispatch(endClicked());
    // The guest learns the end from this side: no media server destroys a room for it.
    await vi.waitFor(() => expect(session.close).toHaveBeenCalledWith({ ended: true }));
  });
});

describe('a console reloaded on a call’s address (decision 0027)', () => {
  const REJOIN = `POST /calls/${CALL_ID}/rejoin`;

  it('asks the API, once its chat is up, and takes the call up again as after a claim', async () => {
    const { store, requests, connections } = agentConsole({
      [REJOIN]: answer({ ...call, onHold: false }),
    });
    store.dispatch(callRejoinRequested(CALL_ID));
    expect(store.getState().call.rejoin).toEqual({ callId: CALL_ID, status: 'rejoining' });
    // Nothing before the chat is connected: the call's room is rejoined through it.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(requests).toEqual([]);
    store.dispatch(chatStatusChanged('connected'));
    await vi.waitFor(() => expect(connections.media).toBeDefined());
    expect(requests.filter((r) => r.route === REJOIN)).toHaveLength(1);
    expect(store.getState().call).toMatchObject({
      phase: 'connecting',
      call: { callId: CALL_ID },
      roomJid: ROOM,
      rejoin: null,
    });
  });

  it('comes back held, as its agent left it: presence, media and controls say so', async () => {
    const { store, connections, media, presences } = agentConsole({
      [REJOIN]: answer({ ...call, onHold: true }),
    });
    store.dispatch(chatStatusChanged('connected'));
    store.dispatch(callRejoinRequested(CALL_ID));
    await vi.waitFor(() => expect(media.session.setOnHold).toHaveBeenCalledWith(true));
    expect(store.getState().call).toMatchObject({ phase: 'connecting', onHold: true });
    // Not `InCall`: the guest, still on its hold page, stays there until the agent resumes.
    expect(presences).toEqual([
      { state: 'CallOnHold', peer: call.guestJabberUsername, callId: CALL_ID },
    ]);
    expect(connections.media).toBeDefined();
    // The call as the claim gives it: the hold is the call screen's, not the call's record.
    expect(store.getState().call.call).toEqual(call);
  });

  it('shows the chat kept before the reload, each message once, and keeps it while live', async () => {
    const guest = call.guestJabberUsername;
    const record = (id: string, direction: 'in' | 'out', message: ChatMessage['message']) => ({
      id,
      direction,
      at: '2026-11-27T02:00:00.000Z',
      delivery: 'delivered' as const,
      payload: {
        sender: direction === 'in' ? ('GUEST' as const) : ('AGENT' as const),
        from: direction === 'in' ? guest : 'staff-1',
        to: direction === 'in' ? 'staff-1' : guest,
        message,
      },
    });
    const file = {
      url: '/api/files/abcdefghijklmnopqrstuv',
      name: 'a.pdf',
      size: 3,
      type: 'application/pdf',
    };
    const kept = [record('m3', 'in', file), record('m2', 'out', 'Hello'), record('m1', 'in', 'Hi')];
    // Another guest's message in the same key is not this call's: it does not come back.
    const foreign = {
      ...record('x', 'in', 'not yours'),
      payload: { ...record('x', 'in', 'x').payload, from: 'g12-other' },
    };
    sessionStorage.setItem(`frontdesk-console.chat.${CALL_ID}`, JSON.stringify([foreign, ...kept]));
    const { store } = agentConsole({ [REJOIN]: answer({ ...call, onHold: false }) });
    // The guest's newest message reached the new page before the kept ones came back.
    store.dispatch(messageReceived(record('m4', 'in', 'Still there?')));
    store.dispatch(chatStatusChanged('connected'));
    store.dispatch(callRejoinRequested(CALL_ID));
    await vi.waitFor(() => expect(store.getState().call.phase).toBe('connecting'));
    const shown = () => store.getState().chat.conversations[guest]?.chatMessages.map((m) => m.id);
    expect(shown()).toEqual(['m4', 'm3', 'm2', 'm1']);
    // Kept again, with what came since, for the next reload; the same message twice is once.
    const stored = () =>
      (
        JSON.parse(sessionStorage.getItem(`frontdesk-console.chat.${CALL_ID}`) ?? '[]') as {
          id: string;
        }[]
      ).map((m) => m.id);
    expect(stored()).toEqual(['m4', 'm3', 'm2', 'm1']);
    store.dispatch(messageReceived(record('m4', 'in', 'Still there?')));
    expect(stored()).toEqual(['m4', 'm3', 'm2', 'm1']);
    // Once the call ends, nothing of it stays in the tab.
    store.dispatch(callEnded('completed'));
    expect(sessionStorage.getItem(`frontdesk-console.chat.${CALL_ID}`)).toBeNull();
  });

  it('says so when the call is over, and opens nothing', async () => {
    sessionStorage.setItem(`frontdesk-console.chat.${CALL_ID}`, '[]');
    const { store, connections } = agentConsole({ [REJOIN]: refusal(409, 'call_over') });
    store.dispatch(chatStatusChanged('connected'));
    store.dispatch(callRejoinRequested(CALL_ID));
    await vi.waitFor(() => expect(store.getState().call.rejoin?.status).toBe('failed'));
    expect(store.getState().call).toMatchObject({
      phase: 'idle',
      call: null,
      rejoin: { callId: CALL_ID, message: 'The call you were in is over.' },
    });
    expect(connections.media).toBeUndefined();
    expect(sessionStorage.getItem(`frontdesk-console.chat.${CALL_ID}`)).toBeNull();
  });
});

describe("the agent's call quality report", () => {
  it('is sent when ICE fails, with what the media measured', async () => {
    const { media, requests } = await agentInCall();
    media.emit('iceFailed', { direction: 'publish', localSdp: null, remoteSdp: null });
    await vi.waitFor(() => expect(requests).toEqual([{ route: QUALITY, body: figures }]));
  });

  it('is sent once when the guest has left, before the media is closed', async () => {
    const { store, media, requests } = await agentInCall();
    const gone: RoomSnapshot = {
      jid: ROOM,
      nick: 'staff-1',
      joined: false,
      auth: { status: true, tries: 1 },
      occupants: [],
    };
    store.dispatch(roomChanged({ snapshot: gone, waiting: [] }));
    await vi.waitFor(() => expect(media.session.close).toHaveBeenCalled());
    expect(store.getState().call.outcome).toBe('guestLeft');
    expect(requests.filter((r) => r.route === QUALITY)).toEqual([
      { route: QUALITY, body: figures },
    ]);
    expect(media.session.qualityReport).toHaveBeenCalledTimes(1);
    expect(media.session.qualityReport.mock.invocationCallOrder[0]).toBeLessThan(
      media.session.close.mock.invocationCallOrder[0] ?? 0,
    );
  });
});
