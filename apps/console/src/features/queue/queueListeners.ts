import type { GuestInQueue } from '@frontdesk/chat';
import { CALLS_CHANGED_NOTICE } from '@frontdesk/protocol';
import type { AppStartListening } from '../../app/hooks.ts';
import type { ConsoleServices } from '../../app/services.ts';
import type { RootState } from '../../app/store.ts';
import { describeError } from '../../app/errors.ts';
import { t } from '../../i18n/messages.ts';
import { workspaceLoaded } from '../auth/authSlice.ts';
import { selectAvailability, SHOW_OF } from '../availability/availabilitySlice.ts';
import {
  chatFailed,
  chatStatusChanged,
  messageDeliveryChanged,
  messageReceived,
} from '../chat/chatSlice.ts';
import { roomChanged, roomJoinFailed, roomsAssigned, waitingCallsLoaded } from './queueSlice.ts';
import { callsChangedNotice, waitingCallsListeners } from './waitingCalls.ts';

/** The queue keeps a guest's announced start, not a stale "waited" figure: the UI ticks. */
const withoutWaited = ({ nick, peer, waitingSince, position }: GuestInQueue) => ({
  nick,
  peer,
  waitingSince,
  position,
});

/** Announces a guest of the category (issue 7: a sound, a notification when allowed). */
function ring(extra: ConsoleServices, state: RootState, categoryId: number | null | undefined) {
  const category = state.auth.company?.categories.find((c) => c.id === categoryId);
  extra.ringer.ring({
    title: t('appTitle'),
    body: t('newGuestNotification', { category: category?.name ?? '' }),
  });
}

export function queueListeners(startListening: AppStartListening): void {
  // After sign-in: the chat session (lazy-loaded), then the company room; the rooms of the
  // waiting calls follow the API's list of them (waitingCalls.ts).
  startListening({
    actionCreator: workspaceLoaded,
    effect: async (action, { dispatch, getState, extra }) => {
      const { login } = getState().auth;
      if (!login) return;
      const rooms = login.rooms;
      dispatch(roomsAssigned(rooms));
      const { ChatSession, agentQueue } = await extra.loadChat();
      const chat = new ChatSession({
        url: action.payload.config.xmppWebsocketUrl,
        jid: login.xmpp.jid,
        token: login.xmpp.password,
        sender: 'AGENT',
        // docs/protocol.md: a resource of its own per tab, so the agent's tabs do not replace
        // each other (guests keep spec §9's one resource). Unique, not secret.
        resource: `web-${Math.random().toString(36).slice(2, 10)}`,
      });
      chat.setAvailability(SHOW_OF[selectAvailability(getState())]);
      extra.connections.chat = chat;
      chat.on('status', (status) => dispatch(chatStatusChanged(status)));
      chat.on('error', (error) => dispatch(chatFailed(describeError(error))));
      chat.on('room', (snapshot) => {
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
      });
      chat.on('message', (record) => dispatch(messageReceived(record)));
      chat.on('serverNotice', (body) => {
        if (body === CALLS_CHANGED_NOTICE) dispatch(callsChangedNotice());
      });
      chat.on('delivery', (change) => dispatch(messageDeliveryChanged(change)));
      try {
        await chat.connect();
      } catch (error) {
        dispatch(chatFailed(describeError(error)));
        return;
      }
      await Promise.all(
        rooms.map((room) =>
          chat
            .joinRoom(room.jid, { nick: chat.username, password: room.password })
            .catch((error: unknown) =>
              dispatch(roomJoinFailed({ jid: room.jid, message: describeError(error) })),
            ),
        ),
      );
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
      if (arrived.length === 0) return;
      ring(extra, state, state.queue.rooms[jid]?.categoryId);
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
      if (ringing[0]) ring(extra, state, ringing[0].categoryId);
    },
  });

  waitingCallsListeners(startListening);
}
