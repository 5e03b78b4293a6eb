import type { ChatSession, RoomSnapshot } from '@frontdesk/chat';
import type { CallQualityBody, ClaimedCall } from '@frontdesk/protocol';
import { describe, expect, it, vi } from 'vitest';
import { Connections } from '../../app/connections.ts';
import type { ConsoleServices } from '../../app/services.ts';
import { createStore } from '../../app/store.ts';
import { answer, fakeApi, refusal, signedIn, type FakeAnswer } from '../../test/render.tsx';
import { chatStatusChanged } from '../chat/chatSlice.ts';
import { callClaimed, roomChanged } from '../queue/queueSlice.ts';
import { callRejoinRequested } from './callSlice.ts';

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
  room: {
    room: CALL_ID,
    pin: 'pin',
    token: `agent.${'t'.repeat(43)}`,
    recorded: false,
    iceServers: [],
  },
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
    on: (event: string, handler: (payload: unknown) => void) => {
      handlers.set(event, handler);
      return () => handlers.delete(event);
    },
    connect: async () => undefined,
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
  connections.chat = {
    username: 'staff-1',
    room: () => ({ joined: true }),
    setPresence: () => undefined,
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
        playStream: async () => undefined,
      }) as unknown as Awaited<ReturnType<ConsoleServices['loadMedia']>>,
    connections,
    ringer: { ring: () => undefined },
  };
  const store = createStore(services, signedIn());
  return { store, media, requests, connections };
}

/** Ada has just taken `call`: the listeners open its media over {@link fakeMedia}. */
async function agentInCall() {
  const agent = agentConsole({
    [QUALITY]: { body: undefined },
    [`GET /calls/${CALL_ID}`]: answer({
      callId: CALL_ID,
      status: 'ended',
      queue: null,
      agentJabberUsername: 'staff-1',
      transfer: null,
    }),
  });
  agent.store.dispatch(callClaimed({ call, roomJid: ROOM }));
  await vi.waitFor(() => expect(agent.connections.media).toBeDefined());
  return agent;
}

describe('a console reloaded on a call’s address (decision 0027)', () => {
  const REJOIN = `POST /calls/${CALL_ID}/rejoin`;

  it('asks the API, once its chat is up, and takes the call up again as after a claim', async () => {
    const { store, requests, connections } = agentConsole({ [REJOIN]: answer(call) });
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

  it('says so when the call is over, and opens nothing', async () => {
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
