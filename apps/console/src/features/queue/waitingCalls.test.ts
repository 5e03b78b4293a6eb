import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatSession } from '@frontdesk/chat';
import { callRoomJid, type CallSummary } from '@frontdesk/protocol';
import { Connections } from '../../app/connections.ts';
import { createStore } from '../../app/store.ts';
import { answer, fakeApi, signedIn, unreachable } from '../../test/render.tsx';
import { roomChanged, waitingCallsLoaded } from './queueSlice.ts';
import { callsChangedNotice, SETTLE_MS } from './waitingCalls.ts';

const call = (n: number): CallSummary => ({
  callId: `g${'a'.repeat(24)}${n}--call${n}`,
  reportId: n,
  guestUsername: `g${'a'.repeat(24)}${n}`,
  guestJabberUsername: `g12-g${'a'.repeat(24)}${n}`,
  categoryId: 40,
  callType: 'video',
  callMethod: 'mediaServer',
  agentJabberUsername: null,
  createdAt: '2026-11-25T10:00:00.000Z',
  answeredAt: null,
  welcomeAnswers: null,
  previousCalls: 0,
  assignmentGroup: null,
  offer: null,
});
const roomOf = (n: number) => callRoomJid(call(n).callId, 'frontdesk.localhost');

/** The store with a connected chat whose joins and leaves are recorded. */
function withChat() {
  const joined: string[] = [];
  const left: string[] = [];
  const connections = new Connections();
  connections.chat = {
    status: 'connected',
    username: 'staff-1',
    joinRoom: vi.fn(async (jid: string) => {
      joined.push(jid);
      return {
        jid,
        nick: 'staff-1',
        joined: true,
        auth: { status: true, tries: 0 },
        occupants: [],
      };
    }),
    leaveRoom: vi.fn(async (jid: string) => void left.push(jid)),
  } as unknown as ChatSession;
  const store = createStore(
    {
      api: unreachable,
      downloadFile: unreachable,
      loadChat: unreachable,
      loadMedia: unreachable,
      connections,
      ringer: { ring: unreachable },
    },
    signedIn(),
  );
  return { store, joined, left };
}

describe('the rooms of the waiting calls (decision 0010)', () => {
  it('joins the room of each listed call once, and leaves those no longer listed', async () => {
    const { store, joined, left } = withChat();
    store.dispatch(waitingCallsLoaded([call(1), call(2)]));
    await vi.waitFor(() => expect(joined).toEqual([roomOf(1), roomOf(2)]));
    expect(store.getState().queue.rooms[roomOf(1)]).toMatchObject({
      kind: 'call',
      callId: call(1).callId,
      guest: call(1).guestJabberUsername,
      categoryId: 40,
    });

    store.dispatch(waitingCallsLoaded([call(2), call(3)]));
    await vi.waitFor(() => expect(joined).toEqual([roomOf(1), roomOf(2), roomOf(3)]));
    expect(left).toEqual([roomOf(1)]);
    expect(Object.keys(store.getState().queue.rooms).sort()).toEqual([roomOf(2), roomOf(3)].sort());
  });
});

describe('asking for the waiting calls as they change', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const LIST = 'GET /calls?status=waiting';

  /** A store without chat whose API lists `listed`, changeable between requests. */
  function listing(listed: CallSummary[]) {
    const answers = { [LIST]: answer(listed) };
    const { api, requests } = fakeApi(answers);
    const store = createStore(
      {
        api,
        downloadFile: unreachable,
        loadChat: unreachable,
        loadMedia: unreachable,
        connections: new Connections(),
        // A guest who shows rings (issue 7): not what these tests look at.
        ringer: { ring: () => undefined },
      },
      signedIn(),
    );
    const asked = () => requests.filter((request) => request.route === LIST).length;
    return { store, answers, asked };
  }

  /** The call's guest present in its room, as the room's presences tell it. */
  const guestSeen = (n: number) =>
    roomChanged({
      snapshot: {
        jid: roomOf(n),
        nick: 'staff-1',
        joined: true,
        auth: { status: true, tries: 0 },
        occupants: [],
      },
      waiting: [
        {
          nick: call(n).guestJabberUsername,
          peer: undefined,
          waitingSince: undefined,
          position: 1,
        },
      ],
    });

  it('asks at once after a quiet spell, and once more after a burst of changes', async () => {
    const { store, asked } = listing([]);
    store.dispatch(callsChangedNotice());
    await vi.advanceTimersByTimeAsync(0);
    expect(asked()).toBe(1);

    store.dispatch(callsChangedNotice());
    await vi.advanceTimersByTimeAsync(SETTLE_MS / 2);
    store.dispatch(callsChangedNotice());
    expect(asked()).toBe(1);
    await vi.advanceTimersByTimeAsync(SETTLE_MS / 2);
    expect(asked()).toBe(2);
    await vi.advanceTimersByTimeAsync(SETTLE_MS * 2);
    expect(asked()).toBe(2);
  });

  it('asks again when a guest shows whose call was listed before its type was recorded', async () => {
    const { store, answers, asked } = listing([{ ...call(2), callType: null }]);
    store.dispatch(callsChangedNotice());
    await vi.waitFor(() =>
      expect(store.getState().queue.calls[call(2).guestJabberUsername]?.callType).toBeNull(),
    );

    answers[LIST] = answer([call(2)]);
    store.dispatch(guestSeen(2));
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(asked()).toBe(2);
    expect(store.getState().queue.calls[call(2).guestJabberUsername]?.callType).toBe('video');

    // Known with its type: the guest's presences ask nothing more.
    store.dispatch(guestSeen(2));
    await vi.advanceTimersByTimeAsync(SETTLE_MS * 2);
    expect(asked()).toBe(2);
  });

  it('asks once about a guest whose call stays without its type, however often its presence changes', async () => {
    const { store, asked } = listing([{ ...call(3), callType: null }]);
    store.dispatch(callsChangedNotice());
    await vi.waitFor(() =>
      expect(store.getState().queue.calls[call(3).guestJabberUsername]?.callType).toBeNull(),
    );
    expect(asked()).toBe(1);

    for (let change = 0; change < 10; change += 1) {
      store.dispatch(guestSeen(3));
      await vi.advanceTimersByTimeAsync(SETTLE_MS * 2);
    }
    expect(asked()).toBe(2);

    // A notice still brings the list.
    store.dispatch(callsChangedNotice());
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(asked()).toBe(3);
  });
});
