import { isAnyOf } from '@reduxjs/toolkit';
import {
  ApiRequestError,
  CALL_RESUME_WINDOW_MS,
  callRoomJid,
  peerAbsence,
  routes,
  type PresenceStatus,
} from '@frontdesk/protocol';
import { claimTabLock } from '@frontdesk/protocol/browser';
import type { AppStartListening } from '../../app/hooks.ts';
import type { ConsoleServices } from '../../app/services.ts';
import { describeError } from '../../app/errors.ts';
import { LOCAL_STREAM } from '@frontdesk/media/streams';
import type { Connections } from '../../app/connections.ts';
import { t } from '../../i18n/messages.ts';
import { selectXmppDomain } from '../auth/authSlice.ts';
import { conversationOpened, conversationRestored } from '../chat/chatSlice.ts';
import { keptCallChat } from './callChat.ts';
import {
  acceptClicked,
  callClaimed,
  callRoomRemoved,
  claimFailed,
  claimLost,
  roomChanged,
} from '../queue/queueSlice.ts';
import {
  callActionFailed,
  callDismissed,
  callEnded,
  callRejoinFailed,
  callRejoinRequested,
  cameraChosen,
  endClicked,
  guestAbsenceChanged,
  guestGoneNoticed,
  guestJoinedCall,
  guestRoomSeen,
  holdChanged,
  holdClicked,
  mediaFailed,
  mediaStateChanged,
  microphoneChosen,
  muteToggled,
  notesFailed,
  notesSaved,
  notesSubmitted,
  resumeClicked,
  transferSubmitted,
} from './callSlice.ts';
import type { AppDispatch, RootState } from '../../app/store.ts';

/** How long a reloaded console waits for its chat before giving up taking its call up again. */
const REJOIN_WAIT_MS = 20_000;
/** How long a reloaded console waits for its old page to let go of the call's lock. */
const CLAIM_WAIT_MS = 2000;
/** The Web Lock the tab that has a call open holds (decision 0027). */
const callLockName = (callId: string) => `frontdesk-console.call.${callId}`;

/** The call under way, with what every control needs; undefined when there is none. */
function current(state: RootState) {
  const { call, roomJid } = state.call;
  const token = state.auth.login?.access_token;
  return call && roomJid && token ? { call, roomJid, token } : undefined;
}

/** Publishes our call presence in the call's room (docs/protocol.md §Presence). */
function announce(
  connections: Connections,
  roomJid: string,
  state: PresenceStatus['state'],
  guest: string,
  callId: string,
) {
  const chat = connections.chat;
  if (!chat) return;
  const status = { state, peer: guest, callId };
  // Joined already when the guest was taken from the queue; else it enters with the presence.
  if (chat.room(roomJid)) chat.setPresence(roomJid, status);
  else void chat.joinRoom(roomJid, { nick: chat.username, status }).catch(() => undefined);
}

/**
 * Sends what the media measured of the call (issue 17's quality reports), read before the
 * media is torn down. The sending is not waited for: a refused or lost report is logged and
 * never holds up the call's end.
 */
async function reportQuality(
  connections: Connections,
  api: ConsoleServices['api'],
  callId: string,
  token: string,
) {
  const media = connections.media;
  if (!media) return;
  try {
    const body = await media.qualityReport();
    void api(routes.callQuality, { params: { callId }, token, body }).catch((error: unknown) =>
      console.warn('could not send the call quality report', error),
    );
  } catch (error) {
    console.warn('could not measure the call quality', error);
  }
}

/**
 * What the media layer asks for at each set-up: what `given` holds the first time (when it holds
 * anything), the API's answer from `ask` every time after.
 */
function givenFirst<T>(given: () => T | undefined, ask: () => Promise<T>): () => Promise<T> {
  let first = true;
  return async () => {
    const value = first ? given() : undefined;
    first = false;
    return value ?? ask();
  };
}

/** Done with a call: its room is left (the API removes it when the call ends). */
async function leaveCallRoom(connections: Connections, dispatch: AppDispatch, roomJid: string) {
  dispatch(callRoomRemoved(roomJid));
  await connections.chat?.leaveRoom(roomJid);
}

export function callListeners(startListening: AppStartListening): void {
  // docs/protocol.md step 3: the API decides who takes the guest.
  startListening({
    actionCreator: acceptClicked,
    effect: async (action, { dispatch, getState, extra }) => {
      const { nick, categoryId } = action.payload;
      const state = getState();
      const summary = state.queue.calls[nick];
      const domain = selectXmppDomain(state);
      const token = state.auth.login?.access_token;
      if (!summary || !domain || !token) {
        dispatch(claimFailed({ nick, message: t('detailsMissing') }));
        return;
      }
      try {
        const { data } = await extra.api(routes.claimCall, {
          token,
          body: { guestUsername: summary.guestUsername, categoryId },
        });
        const lock = await claimTabLock(callLockName(data.callId), 0);
        extra.connections.releaseCall();
        if (lock) extra.connections.callLock = { callId: data.callId, ...lock };
        dispatch(callClaimed({ call: data, roomJid: callRoomJid(data.callId, domain) }));
      } catch (error) {
        if (error instanceof ApiRequestError && error.status === 409) {
          // The API names the winner ("Bo Agent has taken this call.").
          dispatch(claimLost({ nick, message: error.message }));
        } else {
          dispatch(claimFailed({ nick, message: describeError(error) }));
        }
      }
    },
  });

  // decision 0027: a console reloaded mid-call (or reopened on the call's address) asks the API
  // whether this agent still holds that live call; if so it takes it up as after a claim — the
  // call's room, the chat with the guest, its media published again and the guest's subscribed.
  startListening({
    actionCreator: callRejoinRequested,
    effect: async (action, { dispatch, getState, extra, condition }) => {
      const callId = action.payload;
      // The call's room is rejoined through the chat: it must be up first.
      const ready =
        getState().chat.status === 'connected' ||
        (await condition((_action, state) => state.chat.status === 'connected', REJOIN_WAIT_MS));
      const state = getState();
      const token = state.auth.login?.access_token;
      const domain = selectXmppDomain(state);
      if (state.call.phase !== 'idle' || state.call.rejoin?.callId !== callId) return;
      if (!ready || !token || !domain) {
        dispatch(callRejoinFailed(t('callRejoinFailed', { reason: t('chat_closed') })));
        return;
      }
      // Another tab of this agent's may have the call open (a link opened in a new tab).
      const lock = await claimTabLock(callLockName(callId), CLAIM_WAIT_MS);
      if (!lock) {
        dispatch(callRejoinFailed(t('callOpenElsewhere')));
        return;
      }
      extra.connections.callLock = { callId, ...lock };
      try {
        const { data } = await extra.api(routes.rejoinCall, { params: { callId }, token });
        if (getState().call.phase !== 'idle') return extra.connections.releaseCall();
        const { onHold, ...call } = data;
        // The chat so far, as this tab kept it before the reload: the chat server keeps none.
        const self = extra.connections.chat?.username ?? '';
        const messages = keptCallChat(callId, self, call.guestJabberUsername);
        if (messages.length > 0) {
          dispatch(conversationRestored({ peer: call.guestJabberUsername, messages }));
        }
        // As it was: a call its agent had put on hold stays held (its guest shows the hold).
        dispatch(callClaimed({ call, roomJid: callRoomJid(call.callId, domain), onHold }));
      } catch (error) {
        extra.connections.releaseCall();
        const over =
          error instanceof ApiRequestError && (error.status === 409 || error.status === 403);
        dispatch(
          callRejoinFailed(
            over ? t('callRejoinOver') : t('callRejoinFailed', { reason: describeError(error) }),
          ),
        );
      }
    },
  });

  // The winner publishes InCall, opens the chat with the guest and joins the call's room.
  startListening({
    actionCreator: callClaimed,
    effect: async (action, { dispatch, getState, extra }) => {
      const { call, roomJid } = action.payload;
      const { connections } = extra;
      const state = getState();
      const token = state.auth.login?.access_token;
      const server = state.auth.config?.janusWebsocketUrl;
      const chat = connections.chat;
      if (!token || !server || !chat) return;
      // The access token is renewed during a long call: later requests take the current one.
      const currentToken = () => getState().auth.login?.access_token ?? token;
      // A rejoined call on hold says so again: `InCall` would tell the guest nothing new.
      const held = getState().call.onHold;
      const presence = held ? 'CallOnHold' : 'InCall';
      announce(connections, roomJid, presence, call.guestJabberUsername, call.callId);
      dispatch(conversationOpened(call.guestJabberUsername));
      try {
        const { createMediaSession, createP2pSession, playStream } = await extra.loadMedia();
        connections.play = playStream;
        const capture = { display: chat.username, callType: call.callType ?? 'video' } as const;
        const p2p =
          call.callMethod === 'p2p'
            ? createP2pSession({
                ...capture,
                callId: call.callId,
                // decision 0045: the agent offers; its signals go to the call's guest only.
                role: 'offerer',
                signalling: chat,
                iceServers: async () =>
                  (
                    await extra.api(routes.callIce, {
                      params: { callId: call.callId },
                      token: currentToken(),
                    })
                  ).data.iceServers,
              })
            : null;
        // SECURITY: a p2p call's signals go to, and count from, the call's guest only.
        p2p?.setPeer(call.guestJabberUsername);
        const media =
          p2p ??
          createMediaSession({
            ...capture,
            server,
            // The first Janus session takes the sign-in's token (renewed with the access
            // token); a session re-created after a loss asks for a fresh one.
            token: givenFirst(
              () => getState().auth.login?.janusToken,
              async () =>
                (await extra.api(routes.janusToken, { token: currentToken() })).data.janusToken,
            ),
            // The first set-up takes the room access the claim (or rejoin) answered with: no
            // second round trip before the join. Asked again after a lost Janus session: a
            // restarted Janus has no rooms, and the API re-creates the call's room
            // idempotently.
            room: givenFirst(
              () => call.room ?? undefined,
              async () =>
                (
                  await extra.api(routes.callRoom, {
                    params: { callId: call.callId },
                    token: currentToken(),
                  })
                ).data,
            ),
          });
        connections.media = media;
        // Published already held: nothing reaches the guest until the agent resumes.
        if (held) await media.setOnHold(true);
        media.on('state', (mediaState) => dispatch(mediaStateChanged(mediaState)));
        media.on('localStream', (stream) => connections.streams.set(LOCAL_STREAM, stream));
        media.on('remoteStream', ({ janusId, stream }) => connections.streams.set(janusId, stream));
        media.on('iceFailed', () => {
          if (connections.media === media) {
            void reportQuality(connections, extra.api, call.callId, currentToken());
          }
        });
        await media.connect();
      } catch (error) {
        dispatch(mediaFailed(t('mediaFailed', { reason: describeError(error) })));
      }
    },
  });

  // docs/protocol.md step 6: the presence tells the guest, the media stops flowing.
  startListening({
    matcher: isAnyOf(holdClicked, resumeClicked),
    effect: async (action, { dispatch, getState, extra }) => {
      const live = current(getState());
      if (!live) return;
      const onHold = holdClicked.match(action);
      try {
        const state = onHold ? 'CallOnHold' : 'CallResumed';
        announce(
          extra.connections,
          live.roomJid,
          state,
          live.call.guestJabberUsername,
          live.call.callId,
        );
        // For the reports' hold time and holds; the hold itself does not wait for it.
        void extra
          .api(routes.holdEvent, {
            params: { callId: live.call.callId },
            token: live.token,
            body: { onHold },
          })
          .catch((error: unknown) => console.warn('could not record the hold', error));
        await extra.connections.media?.setOnHold(onHold);
        dispatch(holdChanged(onHold));
      } catch (error) {
        dispatch(callActionFailed(t('actionFailed', { reason: describeError(error) })));
      }
    },
  });

  // docs/protocol.md step 7: the API records the target, the guest learns it on hold.
  startListening({
    actionCreator: transferSubmitted,
    effect: async (action, { dispatch, getState, extra }) => {
      const live = current(getState());
      if (!live) return;
      try {
        await extra.api(routes.transferCall, {
          params: { callId: live.call.callId },
          token: live.token,
          body: action.payload,
        });
        announce(
          extra.connections,
          live.roomJid,
          'CallOnHold',
          live.call.guestJabberUsername,
          live.call.callId,
        );
        dispatch(callEnded('transferred'));
        await reportQuality(extra.connections, extra.api, live.call.callId, live.token);
        await extra.connections.closeMedia();
      } catch (error) {
        dispatch(callActionFailed(t('actionFailed', { reason: describeError(error) })));
      }
    },
  });

  // docs/protocol.md step 8.
  startListening({
    actionCreator: endClicked,
    effect: async (_action, { dispatch, getState, extra }) => {
      const live = current(getState());
      if (!live) return;
      // Measured before the API ends the call: that destroys the media room.
      await reportQuality(extra.connections, extra.api, live.call.callId, live.token);
      try {
        await extra.api(routes.endCall, {
          params: { callId: live.call.callId },
          token: live.token,
          body: { reason: 'completed' },
        });
      } catch (error) {
        dispatch(callActionFailed(t('actionFailed', { reason: describeError(error) })));
        return;
      }
      // Ended first: the guest leaving the room in answer is then no news (see below).
      dispatch(callEnded('completed'));
      await finish(extra.connections, dispatch, live.roomJid);
    },
  });

  // The guest's side of the call, as its presence in the call's room tells it (step 4, 8).
  startListening({
    actionCreator: roomChanged,
    effect: async (action, { dispatch, getState, extra, cancelActiveListeners }) => {
      const state = getState();
      const live = current(state);
      const { snapshot } = action.payload;
      if (!live || snapshot.jid !== live.roomJid) return;
      if (state.call.phase === 'ended' || state.call.pending === 'end') return;
      // The newest view of the room decides; an older one still asking the API is dropped.
      cancelActiveListeners();
      const guest = snapshot.joined
        ? snapshot.occupants.find((o) => o.nick === live.call.guestJabberUsername)
        : undefined;
      const inThisCall = guest?.status?.callId === live.call.callId;
      if (inThisCall && !state.call.guestJoined) dispatch(guestJoinedCall());
      const present = guest !== undefined && (inThisCall || !state.call.guestJoined);
      if (present) return void dispatch(guestRoomSeen(true));
      // Out of the room, or (once it had joined) no longer naming the call. A guest who hung up
      // has told the API first: that ends the call at once. Otherwise the guest may be
      // reloading, or the chat server restarting (out of the room: this console cannot tell).
      const ended = await extra
        .api(routes.callState, { params: { callId: live.call.callId }, token: live.token })
        .then(({ data }) => data.status === 'ended' || data.status === 'abandoned')
        .catch(() => false);
      if (!ended) {
        const known = snapshot.joined && extra.connections.chat?.status === 'connected';
        return void dispatch(guestRoomSeen(known ? false : null));
      }
      await guestLeft(extra, dispatch, live);
    },
  });

  // decision 0025: the guest's absence from the chat server's room and the media server's, each
  // as far as this console can see; "reconnecting" while away, "gone" after PEER_GONE_MS when
  // both servers saw it leave (longer when only the chat server did).
  startListening({
    matcher: isAnyOf(guestRoomSeen, mediaStateChanged),
    effect: (_action, { dispatch, getState }) => {
      const { call } = getState();
      if (call.phase !== 'active' && call.phase !== 'connecting') return;
      const media = call.media;
      const absence = peerAbsence({
        chat: call.guestInRoom,
        media: media?.status === 'connected' && call.guestMediaSeen ? media.feeds.length > 0 : null,
      });
      const away = call.guestAway;
      if (absence.away ? away?.goneAfterMs === absence.goneAfterMs : away === null) return;
      dispatch(guestAbsenceChanged({ ...absence, at: Date.now() }));
    },
  });

  // Gone after its grace; still gone a minute later (no reload brought it back), the call ends.
  startListening({
    actionCreator: guestAbsenceChanged,
    effect: async (_action, { dispatch, getState, extra, cancelActiveListeners, delay }) => {
      cancelActiveListeners();
      const away = getState().call.guestAway;
      if (!away || away.goneAfterMs === null) return;
      await delay(Math.max(0, away.since + away.goneAfterMs - Date.now()));
      dispatch(guestGoneNoticed());
      await delay(CALL_RESUME_WINDOW_MS);
      const live = current(getState());
      if (!live || getState().call.phase === 'ended' || getState().call.pending === 'end') return;
      // The call is over for the API too: a reload after this starts a new conversation.
      await extra
        .api(routes.endCall, {
          params: { callId: live.call.callId },
          token: live.token,
          body: { reason: 'completed' },
        })
        .catch((error: unknown) => console.warn('could not end the call the guest left', error));
      await guestLeft(extra, dispatch, live);
    },
  });

  // Over, however it ended: another tab of the agent's may open the call's address (it learns
  // the call is over) rather than be told it is open here.
  startListening({
    actionCreator: callEnded,
    effect: (_action, { extra }) => extra.connections.releaseCall(),
  });

  // After a transfer the hold presence stayed for the guest to read; back at the queue it goes.
  startListening({
    actionCreator: callDismissed,
    effect: async (_action, { dispatch, getOriginalState, extra }) => {
      const before = getOriginalState();
      if (before.call.outcome !== 'transferred' || !before.call.roomJid) return;
      await leaveCallRoom(extra.connections, dispatch, before.call.roomJid);
    },
  });

  startListening({
    actionCreator: notesSubmitted,
    effect: async (_action, { dispatch, getState, extra }) => {
      const state = getState();
      const live = current(state);
      if (!live) return;
      try {
        await extra.api(routes.callNotes, {
          params: { callId: live.call.callId },
          token: live.token,
          body: { notes: state.call.notes },
        });
        dispatch(notesSaved(state.call.notes));
      } catch (error) {
        dispatch(notesFailed(t('notesFailed', { reason: describeError(error) })));
      }
    },
  });

  startListening({
    actionCreator: muteToggled,
    effect: async (action, { dispatch, getState, extra }) => {
      const local = getState().call.media?.local;
      if (!local) return;
      const muted = action.payload === 'audio' ? local.audioMuted : local.videoMuted;
      await extra.connections.media
        ?.setMuted(action.payload, !muted)
        .catch((error: unknown) =>
          dispatch(callActionFailed(t('actionFailed', { reason: describeError(error) }))),
        );
    },
  });

  startListening({
    matcher: isAnyOf(cameraChosen, microphoneChosen),
    effect: async (action, { dispatch, extra }) => {
      const media = extra.connections.media;
      if (!media) return;
      try {
        if (cameraChosen.match(action)) await media.switchCamera({ deviceId: action.payload });
        else if (microphoneChosen.match(action)) await media.switchMicrophone(action.payload);
      } catch (error) {
        dispatch(callActionFailed(t('actionFailed', { reason: describeError(error) })));
      }
    },
  });
}

/** The guest has left for good: the call ends here, with what the media measured. */
async function guestLeft(
  extra: ConsoleServices,
  dispatch: AppDispatch,
  live: NonNullable<ReturnType<typeof current>>,
) {
  dispatch(callEnded('guestLeft'));
  await reportQuality(extra.connections, extra.api, live.call.callId, live.token);
  await finish(extra.connections, dispatch, live.roomJid);
}

/**
 * Both sides leave the Janus room and the call's room (docs/protocol.md step 8). The call is over
 * at the API by now: a p2p call's guest is told so with its media's goodbye (decision 0045).
 */
async function finish(connections: Connections, dispatch: AppDispatch, roomJid: string) {
  await connections.closeMedia({ ended: true });
  await leaveCallRoom(connections, dispatch, roomJid);
}
