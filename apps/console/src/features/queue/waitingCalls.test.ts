import { describe, expect, it, vi } from 'vitest';
import type { ChatSession } from '@frontdesk/chat';
import { callRoomJid, type CallSummary } from '@frontdesk/protocol';
import { Connections } from '../../app/connections.ts';
import { createStore } from '../../app/store.ts';
import { signedIn, unreachable } from '../../test/render.tsx';
import { waitingCallsLoaded } from './queueSlice.ts';

const call = (n: number): CallSummary => ({
  callId: `g${'a'.repeat(24)}${n}--call${n}`,
  reportId: n,
  guestUsername: `g${'a'.repeat(24)}${n}`,
  guestJabberUsername: `g12-g${'a'.repeat(24)}${n}`,
  categoryId: 40,
  callType: 'video',
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
