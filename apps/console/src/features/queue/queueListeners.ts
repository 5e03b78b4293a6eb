import type { GuestInQueue } from '@frontdesk/chat';
import type { AppStartListening } from '../../app/hooks.ts';
import { describeError } from '../../app/errors.ts';
import { t } from '../../i18n/messages.ts';
import { workspaceLoaded } from '../auth/authSlice.ts';
import { selectAvailability } from '../availability/availabilitySlice.ts';
import {
  chatFailed,
  chatStatusChanged,
  messageDeliveryChanged,
  messageReceived,
} from '../chat/chatSlice.ts';
import { roomChanged, roomJoinFailed, roomsAssigned } from './queueSlice.ts';
import { waitingCallsListeners } from './waitingCalls.ts';

/** The queue keeps a guest's announced start, not a stale "waited" figure: the UI ticks. */
const withoutWaited = ({ nick, peer, waitingSince, position }: GuestInQueue) => ({
  nick,
  peer,
  waitingSince,
  position,
});

export function queueListeners(startListening: AppStartListening): void {
  // After sign-in: the chat session (lazy-loaded), then the company room and the category rooms.
  startListening({
    actionCreator: workspaceLoaded,
    effect: async (action, { dispatch, getState, extra }) => {
      const { login } = getState().auth;
      if (!login) return;
      const rooms = login.rooms;
      dispatch(
        roomsAssigned(rooms.map(({ jid, kind, categoryId }) => ({ jid, kind, categoryId }))),
      );
      const { ChatSession, agentQueue } = await extra.loadChat();
      const chat = new ChatSession({
        url: action.payload.config.xmppWebsocketUrl,
        jid: login.xmpp.jid,
        token: login.xmpp.password,
        sender: 'AGENT',
      });
      extra.connections.chat = chat;
      chat.on('status', (status) => dispatch(chatStatusChanged(status)));
      chat.on('error', (error) => dispatch(chatFailed(describeError(error))));
      chat.on('room', (snapshot) =>
        dispatch(
          roomChanged({
            snapshot,
            waiting: agentQueue(snapshot, chat.username).map(withoutWaited),
          }),
        ),
      );
      chat.on('message', (record) => dispatch(messageReceived(record)));
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

  // New guests ring (issue 7), unless the agent is away, busy or in a call.
  startListening({
    actionCreator: roomChanged,
    effect: (action, { getState, getOriginalState, extra }) => {
      const state = getState();
      if (selectAvailability(state) !== 'available') return;
      const jid = action.payload.snapshot.jid;
      const before = new Set(getOriginalState().queue.rooms[jid]?.waiting.map((g) => g.nick));
      const arrived = action.payload.waiting.filter((guest) => !before.has(guest.nick));
      if (arrived.length === 0) return;
      const room = state.queue.rooms[jid];
      const category = state.auth.company?.categories.find((c) => c.id === room?.categoryId);
      extra.ringer.ring({
        title: t('appTitle'),
        body: t('newGuestNotification', { category: category?.name ?? '' }),
      });
    },
  });

  waitingCallsListeners(startListening);
}
