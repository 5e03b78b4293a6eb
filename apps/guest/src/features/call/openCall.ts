/*
 * The live call at work (decision 0012): opening it in its chat and media rooms, and following
 * what they say — the queue's place, the agent's claim, hold and transfer, the agent's presence.
 * Loaded with callFlow.ts when a call starts or resumes, not with the page: the
 * page before a call carries only `Connections` and the presence the guest says.
 */
import {
  callReportUpdateBodySchema,
  DEFAULT_AVERAGE_WAIT_MS,
  agentAbsence,
  QUEUE_POLL_MS,
  queuePlace,
  routes,
  type CallMethod,
  type CallState,
  type CallType,
} from '@frontdesk/protocol';
import type { RoomSnapshot } from '@frontdesk/chat';
import { LOCAL_STREAM } from '@frontdesk/media/streams';
import { captureChoice } from '../browserCheck/captureChoice.ts';
import { claimCall } from './callClaim.ts';
import { roomJoined } from '../chat/chatRoomSlice.ts';
import { agentTypingChanged, chatDeliveryChanged, chatMessageReceived } from '../chat/chatSlice.ts';
import { keepTicket, TICKET_REFRESH_MS } from '../guestAuth/resumeTicket.ts';
import {
  agentAccepted,
  callEndNoticed,
  chatStatusChanged,
  holdEnded,
  holdStarted,
  mediaStateChanged,
  peerAwayChanged,
  queuePlaceChanged,
  roomOpened,
} from './callSlice.ts';
import {
  guestPresence,
  publishPresence,
  readCallState,
  type CallContext,
  type CallOutcome,
  type LiveCall,
} from './connections.ts';

/**
 * On hold, the guest asks the API whether the agent is moving the call elsewhere (step 7). A
 * question that fails is asked again while the hold lasts: a transfer missed would leave the
 * guest on the hold screen of a call its agent has left.
 */
async function checkTransfer(call: LiveCall, ctx: CallContext): Promise<void> {
  for (;;) {
    const state = await readCallState(call.callId, ctx).catch((error: unknown) => {
      console.warn('could not ask whether the call is being transferred', error);
      return null;
    });
    if (state?.transfer) {
      call.settle({
        kind: 'transfer',
        toAgent: state.transfer.toAgentJabberUsername,
        toCategoryId: state.transfer.toCategoryId,
      });
      return;
    }
    if (state || ctx.extra.connections.call !== call || !ctx.getState().call.onHold) return;
    await new Promise((resolve) => setTimeout(resolve, QUEUE_POLL_MS));
  }
}

/**
 * While no agent has the call: its place in the queue, from the API, now and again (no guest sees
 * the others, decision 0010). Asking is also how the API knows the guest still waits.
 */
async function followQueue(call: LiveCall, ctx: CallContext): Promise<void> {
  const { dispatch, getState } = ctx;
  while (ctx.extra.connections.call === call && getState().call.agent === null) {
    const state = await readCallState(call.callId, ctx).catch(() => null);
    if (ctx.extra.connections.call !== call) return;
    if (state) {
      agentConfirmed(call, state, ctx);
      if (getState().call.agent !== null) return;
      const { details } = getState().company;
      const category = details?.categories.find((c) => c.id === getState().call.categoryId);
      const averageWaitMs = category?.averageWaitMs ?? DEFAULT_AVERAGE_WAIT_MS;
      dispatch(
        queuePlaceChanged(
          state.queue && queuePlace(state.queue, averageWaitMs, Date.now() - call.waitingSince),
        ),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, QUEUE_POLL_MS));
  }
}

/**
 * What the call's room says: the agent's presences that accept, hold and resume the call
 * (docs/protocol.md steps 3, 4 and 6).
 */
function followRoom(snapshot: RoomSnapshot, call: LiveCall, ctx: CallContext) {
  const { dispatch, getState } = ctx;
  for (const occupant of snapshot.occupants) {
    const status = occupant.status;
    if (occupant.self || status?.peer !== call.nick || status.callId !== call.callId) continue;
    if (status.state === 'InCall' && getState().call.agent === null) {
      void confirmAgent(call, occupant.nick, ctx);
    } else if (occupant.nick !== getState().call.agent) {
      // SECURITY: hold and resume count only from the agent the API named.
      continue;
    } else if (status.state === 'CallOnHold' && !getState().call.onHold) {
      dispatch(holdStarted());
      void checkTransfer(call, ctx);
    } else if (status.state === 'CallResumed' && getState().call.onHold) {
      dispatch(holdEnded());
    }
  }
}

/**
 * An occupant says it took this guest's call. SECURITY: anyone in the room can say so; the guest
 * believes it only when the API says the call is answered by that very agent. The agent says it
 * once: when the API's answer is missing or not yet `answered`, the claim stays, and the queue's
 * next poll ({@link followQueue}) confirms it — or the guest would wait on for a call its agent
 * has taken.
 */
async function confirmAgent(call: LiveCall, nick: string, ctx: CallContext): Promise<void> {
  if (call.claims.has(nick)) return;
  // The call's set-up time counts from the agent's word, not from the API's confirmation.
  call.claims.set(nick, performance.now());
  const state = await readCallState(call.callId, ctx).catch(() => null);
  if (state) agentConfirmed(call, state, ctx);
}

/** The API's word on the call: it answers the guest's call with an agent that claimed it. */
function agentConfirmed(call: LiveCall, state: CallState, ctx: CallContext): void {
  const { dispatch, getState } = ctx;
  if (ctx.extra.connections.call !== call || getState().call.agent !== null) return;
  const nick = state.agentJabberUsername;
  const claimedAt = nick === null ? undefined : call.claims.get(nick);
  if (state.status !== 'answered' || nick === null || claimedAt === undefined) return;
  call.claims.clear();
  dispatch(agentAccepted(nick));
  call.media.markAccepted(claimedAt);
  // A p2p call's media takes signals from this agent only, from now on.
  call.media.setPeer?.(nick);
  publishPresence(call, getState());
}

/**
 * Where the agent is, by the servers' own signals: in the call's chat room (known while this
 * session is in it), publishing in the media room (known while this side's media is connected
 * and the call has begun).
 */
function agentSignals(call: LiveCall, agent: string, callStarted: boolean) {
  const room = call.chat.room(call.room);
  const media = call.media.state;
  return {
    chat:
      room?.joined && call.chat.status === 'connected'
        ? room.occupants.some((o) => o.nick === agent)
        : null,
    media: media.status === 'connected' && callStarted ? media.feeds.length > 0 : null,
  };
}

/**
 * An agent whose console reloaded, or whose browser closed, never hangs up: the chat server and
 * the media server both see it leave. The guest sees "reconnecting" meanwhile (and whenever the
 * agent's media alone drops: it recovers by itself); a reloaded console takes the call up again
 * (decision 0027). After `PEER_GONE_GRACE_MS` away (`agentAbsence`) the agent is gone: the call
 * ends at the API too — so a console that comes back later finds it over — and the guest is told
 * so. An agent's hang-up ends the call at once, through the media room.
 */
function watchAgentPresence(call: LiveCall, ctx: CallContext): void {
  const { dispatch, getState, extra } = ctx;
  if (extra.connections.call !== call) return;
  const { agent, onHold, peerAway, callStarted } = getState().call;
  const absence =
    agent && !onHold
      ? agentAbsence(agentSignals(call, agent, callStarted))
      : { away: false, goneAfterMs: null };
  if (absence.away !== peerAway) dispatch(peerAwayChanged(absence.away));
  clearTimeout(call.agentGoneTimer);
  call.agentGoneTimer = undefined;
  if (absence.goneAfterMs === null) {
    call.agentAwaySince = undefined;
    return;
  }
  call.agentAwaySince ??= Date.now();
  const left = call.agentAwaySince + absence.goneAfterMs - Date.now();
  if (left > 0) {
    call.agentGoneTimer = setTimeout(() => watchAgentPresence(call, ctx), left);
    return;
  }
  dispatch(callEndNoticed('agentGone'));
  void extra
    .api(routes.endCall, {
      params: { callId: call.callId },
      token: getState().guestAuth.access_token ?? undefined,
      body: { reason: 'completed' },
    })
    .catch((error: unknown) => console.warn('could not end the call its agent left', error));
  call.settle({ kind: 'agentLeft' });
}

/**
 * Waits in the call's own room (decision 0010) and publishes into the call's Janus room
 * (docs/protocol.md step 2). The chat and media code is loaded here, not before: the pre-call
 * pages stay light.
 */
export async function openCall(
  params: {
    callId: string;
    callType: CallType;
    roomJid: string;
    /**
     * How the call's media travels, as the API fixed it when it made the call and said so in the
     * answer that made it (decision 0045): add, hold-call or resume.
     */
    callMethod: CallMethod;
    /** What must be on record before the guest enters the call's room and shows in a queue. */
    recorded: Promise<unknown>;
  },
  ctx: CallContext,
): Promise<LiveCall> {
  const { dispatch, getState, extra } = ctx;
  const { api } = extra;
  const { callMethod } = params;
  // No server records a p2p call: the call screen must not say it is recorded.
  if (callMethod === 'p2p') dispatch(roomOpened({ recorded: false }));
  const [adapters, config] = await Promise.all([extra.loadCallAdapters(), extra.clientConfig()]);
  const auth = getState().guestAuth;
  if (!auth.services || !auth.username || !auth.jabberusername || !auth.access_token) {
    throw new Error('not signed in');
  }
  // The access token is renewed during a long call: each request takes the current one.
  const token = () => getState().guestAuth.access_token ?? undefined;
  const company = getState().company.details;

  const chat = adapters.createChat({
    url: config.xmppWebsocketUrl,
    jid: auth.services.xmpp.jid,
    token: auth.services.xmpp.password,
    sender: 'GUEST',
  });
  const capture = {
    display: auth.username,
    callType: params.callType,
    // The devices the guest picked in the preview (issue 18).
    ...captureChoice(getState().browserCheck, company?.flipCamera === true),
  };
  const media =
    callMethod === 'p2p'
      ? adapters.createP2pMedia({
          ...capture,
          callId: params.callId,
          // The agent offers once the API named it (confirmAgent sets the peer).
          role: 'answerer',
          signalling: chat,
          iceServers: async () =>
            (await api(routes.callIce, { params: { callId: params.callId }, token: token() })).data
              .iceServers,
        })
      : adapters.createMedia({
          ...capture,
          server: config.janusWebsocketUrl,
          token: async () => (await api(routes.janusToken, { token: token() })).data.janusToken,
          room: async () => {
            const { data: room } = await api(routes.callRoom, {
              params: { callId: params.callId },
              // spec §7: a native app's webview gets a room it can decode (H.264).
              query: getState().page.webview ? { webview: 'true' } : {},
              token: token(),
            });
            dispatch(roomOpened({ recorded: room.recorded }));
            return room;
          },
        });
  // A resumed call its agent had answered: that agent is the peer again (decision 0025).
  const answeredBy = getState().call.agent;
  if (answeredBy) media.setPeer?.(answeredBy);

  let settle: (outcome: CallOutcome) => void = () => undefined;
  const ended = new Promise<CallOutcome>((resolve) => (settle = resolve));
  let endReported = false;
  const reportQuality = async (moment: 'end' | 'iceFailed') => {
    // A leg no agent took had no media with anyone to measure.
    if (getState().call.agent === null || endReported) return;
    endReported = moment === 'end';
    try {
      const body = await media.qualityReport();
      void api(routes.callQuality, {
        params: { callId: params.callId },
        token: token(),
        body,
      }).catch((error: unknown) => console.warn('could not send the call quality report', error));
    } catch (error) {
      console.warn('could not measure the call quality', error);
    }
  };
  const call: LiveCall = {
    chat,
    media,
    room: params.roomJid,
    nick: auth.jabberusername,
    callId: params.callId,
    unsubscribe: [],
    ended,
    settle,
    claims: new Map(),
    waitingSince: Date.now(),
    reportQuality,
  };
  extra.connections.call = call;
  // decision 0025: the tab keeps which call it is in, so a reload takes it up again.
  const ticket = {
    callId: params.callId,
    categoryId: getState().call.categoryId ?? 0,
    callType: params.callType,
  };
  const keep = () => keepTicket(extra.tabStorage, getState().page.companyId, ticket);
  keep();
  // This tab has the call open: a duplicate of it, which copies the ticket, must stay out.
  if (extra.connections.claim?.callId !== params.callId) {
    extra.connections.claim?.release();
    extra.connections.claim = await claimCall(params.callId, 0);
  }
  const ticketTimer = setInterval(keep, TICKET_REFRESH_MS);

  call.unsubscribe.push(
    () => clearInterval(ticketTimer),
    chat.on('status', (status) => dispatch(chatStatusChanged(status))),
    chat.on('message', (record) => {
      // SECURITY: only the agent the API confirmed for this call speaks in it (decision 0010).
      if (record.direction === 'in' && record.payload.from !== getState().call.agent) return;
      dispatch(chatMessageReceived(record));
    }),
    chat.on('delivery', (update) => dispatch(chatDeliveryChanged(update))),
    chat.on('chatState', (change) => {
      if (change.from === getState().call.agent) dispatch(agentTypingChanged(change.state));
    }),
    chat.on('room', (snapshot) => {
      if (snapshot.jid !== call.room) return;
      followRoom(snapshot, call, ctx);
      watchAgentPresence(call, ctx);
    }),
    media.on('state', (state) => {
      dispatch(mediaStateChanged(state));
      if (state.status === 'closed' && state.endReason === 'roomDestroyed' && getState().call.agent)
        dispatch(callEndNoticed('agentEnded'));
      if (state.status === 'closed') settle({ kind: 'mediaEnded', reason: state.endReason });
      else watchAgentPresence(call, ctx);
    }),
    media.on('localStream', (stream) => extra.connections.streams.set(LOCAL_STREAM, stream)),
    media.on('remoteStream', ({ janusId, stream }) =>
      extra.connections.streams.set(janusId, stream),
    ),
    media.on('iceFailed', ({ localSdp, remoteSdp }) => {
      // spec §8: ICE failure sends a report update with success false and the SDPs.
      const body = callReportUpdateBodySchema.parse({
        call_id: params.callId,
        success: false,
        ...(localSdp ? { guest_local_sdp: localSdp } : {}),
        ...(remoteSdp ? { guest_remote_sdp: remoteSdp } : {}),
      });
      void api(routes.updateCallReport, { token: token(), body }).catch((error: unknown) =>
        console.warn('could not report the failed ICE', error),
      );
      void reportQuality('iceFailed');
    }),
  );

  await Promise.all([chat.connect(), params.recorded]);
  call.presence = guestPresence(getState(), params.callId);
  const snapshot = await chat
    .joinRoom(params.roomJid, { nick: call.nick, status: call.presence })
    .catch((error: unknown) => {
      const known = chat.room(params.roomJid);
      dispatch(
        roomJoined({ jid: params.roomJid, auth: known?.auth ?? { status: false, tries: 1 } }),
      );
      throw error;
    });
  dispatch(roomJoined({ jid: params.roomJid, auth: snapshot.auth }));
  void followQueue(call, ctx);
  await media.connect();
  return call;
}
