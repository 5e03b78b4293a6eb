import type { GuestInQueue } from '@frontdesk/chat';
import { CALLS_CHANGED_NOTICE } from '@frontdesk/protocol';
import type { AppStartListening } from '../../app/hooks.ts';
import type { ConsoleServices } from '../../app/services.ts';
import type { RootState } from '../../app/store.ts';
import { t } from '../../i18n/messages.ts';
import { workspaceLoaded } from '../auth/authSlice.ts';
import { selectAvailability } from '../availability/availabilitySlice.ts';
import { chatRoomChanged, serverNoticeReceived } from '../chat/chatSlice.ts';
import { roomChanged, roomsAssigned, waitingCallsLoaded } from './queueSlice.ts';
import { callsChangedNotice, waitingCallsListeners } from './waitingCalls.ts';

/** The queue keeps a guest's announced start, not a stale "waited" figure: the UI ticks. */
const withoutWaited = ({ nick, peer, waitingSince, position }: GuestInQueue) => ({
  nick,
  peer,
  waitingSince,
  position,
});

/** Announces a guest of the category (issue 7: a sound, a notification when allowed). */
function ring(
  extra: ConsoleServices,
  state: RootState,
  categoryId: number | null | undefined,
  guestNick: string,
) {
  const category = state.auth.company?.categories.find((c) => c.id === categoryId);
  extra.ringer.ring({
    title: t('appTitle'),
    body: t('newGuestNotification', { category: category?.name ?? '' }),
    guestNick,
  });
}

export function queueListeners(startListening: AppStartListening): void {
  // The rooms this agent follows from sign-in: its company's; the rooms of the waiting calls
  // follow the API's list of them (waitingCalls.ts).
  startListening({
    actionCreator: workspaceLoaded,
    effect: (_action, { dispatch, getState }) => {
      const rooms = getState().auth.login?.rooms;
      if (rooms) dispatch(roomsAssigned(rooms));
    },
  });

  // A room changed: its waiting guests, as this agent sees them.
  startListening({
    actionCreator: chatRoomChanged,
    effect: async ({ payload: snapshot }, { dispatch, getState, extra }) => {
      const chat = extra.connections.chat;
      if (!chat) return;
      const { agentQueue } = await extra.loadChat();
      // SECURITY: in a call's room only the guest the API named is that call's guest.
      const guest = getState().queue.rooms[snapshot.jid]?.guest;
      dispatch(
        roomChanged({
          snapshot,
          waiting: agentQueue(snapshot, chat.username)
            .filter((waiting) => waiting.nick === guest)
            .map(withoutWaited),
        }),
      );
    },
  });

  startListening({
    actionCreator: serverNoticeReceived,
    effect: ({ payload: body }, { dispatch }) => {
      if (body === CALLS_CHANGED_NOTICE) dispatch(callsChangedNotice());
    },
  });

  // New guests ring (issue 7), unless the agent is away, busy or in a call; with round robin
  // only the agent each is offered to (below).
  startListening({
    actionCreator: roomChanged,
    effect: (action, { getState, getOriginalState, extra }) => {
      const state = getState();
      if (selectAvailability(state) !== 'available' || state.auth.company?.roundRobin) return;
      const jid = action.payload.snapshot.jid;
      const before = new Set(getOriginalState().queue.rooms[jid]?.waiting.map((g) => g.nick));
      const arrived = action.payload.waiting.filter((guest) => !before.has(guest.nick));
      const [first] = arrived;
      if (!first) return;
      ring(extra, state, state.queue.rooms[jid]?.categoryId, first.nick);
    },
  });

  // Round robin (docs/protocol.md step 3): a call rings when it becomes offered to this agent,
  // or, while the API knows no available agent (no offer), when it first shows.
  startListening({
    actionCreator: waitingCallsLoaded,
    effect: (action, { getState, getOriginalState, extra }) => {
      const state = getState();
      const me = extra.connections.chat?.username;
      if (selectAvailability(state) !== 'available' || !state.auth.company?.roundRobin) return;
      const before = getOriginalState().queue.calls;
      const mine = new Set(
        Object.values(state.queue.rooms).flatMap((r) => r.waiting.map((g) => g.nick)),
      );
      const ringing = action.payload.filter((call) => {
        if (!mine.has(call.guestJabberUsername)) return false;
        const earlier = before[call.guestJabberUsername];
        return call.offer
          ? call.offer.agentJabberUsername === me && earlier?.offer?.agentJabberUsername !== me
          : !earlier;
      });
      if (ringing[0]) ring(extra, state, ringing[0].categoryId, ringing[0].guestJabberUsername);
    },
  });

  waitingCallsListeners(startListening);
}
