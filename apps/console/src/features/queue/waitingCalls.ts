import { createAction, type UnknownAction } from '@reduxjs/toolkit';
import { callRoomJid, routes } from '@frontdesk/protocol';
import type { AppListenerApi, AppStartListening } from '../../app/hooks.ts';
import type { RootState } from '../../app/store.ts';
import { describeError } from '../../app/errors.ts';
import { selectXmppDomain } from '../auth/authSlice.ts';
import { chatStatusChanged, roomJoinFailed } from '../chat/chatSlice.ts';
import {
  callRoomAdded,
  callRoomRemoved,
  roomChanged,
  waitingCallsFailed,
  waitingCallsLoaded,
} from './queueSlice.ts';

/** The XMPP server said, for the API, that the company's waiting calls changed. */
export const callsChangedNotice = createAction('queue/callsChangedNotice');

/**
 * Guests often arrive together: after a request, the changes of the next this many ms wait and
 * go in one request. A change after a quiet spell is asked for at once.
 */
export const SETTLE_MS = 300;
/** Asked a little after an offer ends, so the API's clock has surely moved to the next turn. */
const TURN_MARGIN_MS = 250;
/** Asked again this often besides the notices, so a notice that got lost costs little. */
const REFRESH_MS = 20_000;

/**
 * The waiting calls come from the API (`GET /api/calls?status=waiting`), which tells the agents
 * through the XMPP server when they change; each call's room is joined to see its guest's
 * presence (decision 0010), and left once the call is taken, ends, or this agent's own call in it
 * is over. The API adds what presence cannot carry (welcome answers, call type, previous calls)
 * and the guest's username that a claim needs.
 */
export function waitingCallsListeners(startListening: AppStartListening): void {
  /** When this store last asked for the list because of a change (`Date.now()`). */
  let askedAt = -Infinity;
  /**
   * Guests whose presence already made this store ask once. A guest that never records its call
   * type and keeps changing its presence must not make every console of its company ask again
   * and again; the notices and the periodic refresh still bring its call in.
   */
  const askedAbout = new Set<string>();
  // A guest in a call's room that the list does not know, or knows without its call type: the
  // API tells the agents of a call as the call is added, and its guest records the type (the
  // agent answers with the same kind of call) before it enters its room.
  const unknownGuests = (action: UnknownAction, state: RootState): string[] =>
    roomChanged.match(action)
      ? action.payload.waiting
          .map((guest) => guest.nick)
          .filter((nick) => !state.queue.calls[nick]?.callType && !askedAbout.has(nick))
      : [];
  startListening({
    predicate: (action, state) =>
      callsChangedNotice.match(action) || unknownGuests(action, state).length > 0,
    effect: async (action, api) => {
      for (const nick of unknownGuests(action, api.getState())) askedAbout.add(nick);
      api.cancelActiveListeners();
      const wait = askedAt + SETTLE_MS - Date.now();
      if (wait > 0) await api.delay(wait);
      askedAt = Date.now();
      await loadWaitingCalls(api);
    },
  });

  // A guest whose call is listed with its type may be asked about again on a later call.
  startListening({
    actionCreator: waitingCallsLoaded,
    effect: (action) => {
      for (const call of action.payload) {
        if (call.callType) askedAbout.delete(call.guestJabberUsername);
      }
    },
  });

  // While the chat is up: at once (a reconnect may have missed notices), then now and again.
  startListening({
    actionCreator: chatStatusChanged,
    effect: async (action, api) => {
      api.cancelActiveListeners();
      if (action.payload !== 'connected') return;
      for (;;) {
        await loadWaitingCalls(api);
        await api.delay(REFRESH_MS);
      }
    },
  });

  // Round robin: each offer ends at its `until`, when the API names the next agent; ask then.
  startListening({
    actionCreator: waitingCallsLoaded,
    effect: async (action, api) => {
      api.cancelActiveListeners();
      const ends = action.payload.flatMap((call) =>
        call.offer ? [Date.parse(call.offer.until)] : [],
      );
      if (ends.length === 0) return;
      await api.delay(Math.max(0, Math.min(...ends) - Date.now()) + TURN_MARGIN_MS);
      await loadWaitingCalls(api);
    },
  });

  // The rooms follow the list.
  startListening({
    actionCreator: waitingCallsLoaded,
    effect: async (action, { dispatch, getState, extra }) => {
      const chat = extra.connections.chat;
      const state = getState();
      const domain = selectXmppDomain(state);
      if (!chat || chat.status !== 'connected' || !domain) return;
      const listed = new Map(
        action.payload.map((call) => [callRoomJid(call.callId, domain), call] as const),
      );
      for (const room of Object.values(state.queue.rooms)) {
        if (room.kind !== 'call' || listed.has(room.jid) || room.jid === state.call.roomJid) {
          continue;
        }
        // Being claimed by this agent: the claim's answer decides what becomes of it.
        const claiming = state.queue.claim?.status === 'claiming';
        if (claiming && room.waiting.some((guest) => guest.nick === state.queue.claim?.nick)) {
          continue;
        }
        dispatch(callRoomRemoved(room.jid));
        void chat.leaveRoom(room.jid);
      }
      for (const [jid, call] of listed) {
        if (state.queue.rooms[jid]) continue;
        dispatch(
          callRoomAdded({
            jid,
            categoryId: call.categoryId,
            callId: call.callId,
            guest: call.guestJabberUsername,
          }),
        );
        chat
          .joinRoom(jid, { nick: chat.username })
          .catch((error: unknown) =>
            dispatch(roomJoinFailed({ jid, message: describeError(error) })),
          );
      }
    },
  });
}

async function loadWaitingCalls({ dispatch, getState, extra }: AppListenerApi) {
  const token = getState().auth.login?.access_token;
  if (!token) return;
  try {
    const { data } = await extra.api(routes.listCalls, { query: { status: 'waiting' }, token });
    dispatch(waitingCallsLoaded(data));
  } catch (error) {
    dispatch(waitingCallsFailed(describeError(error)));
  }
}
