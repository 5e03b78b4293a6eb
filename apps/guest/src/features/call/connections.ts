import {
  formatPresenceStatus,
  guestPresenceState,
  ROUND_ROBIN_PEER,
  routes,
  type PresenceStatus,
} from '@frontdesk/protocol';
import type { ChatSession, ChatSessionOptions } from '@frontdesk/chat';
import type {
  MediaSession,
  MediaSessionOptions,
  MediaState,
  P2pSession,
  P2pSessionOptions,
} from '@frontdesk/media';
import { StreamRegistry } from '@frontdesk/media/streams';
import type { AppDispatch, RootState } from '../../app/store.ts';
import type { GuestServices } from '../../app/services.ts';
import type { CallClaim } from './callClaim.ts';

/** What the thunks and listeners hand the live call: state, dispatch, and the services. */
export type CallContext = {
  dispatch: AppDispatch;
  getState: () => RootState;
  extra: GuestServices;
};

/** The members of the chat adapter's session that the guest's call uses (tests fake these). */
export type GuestChat = Pick<
  ChatSession,
  | 'status'
  | 'on'
  | 'connect'
  | 'joinRoom'
  | 'room'
  | 'setPresence'
  | 'sendMessage'
  | 'sendChatState'
  | 'markDisplayed'
  | 'endCall'
  | 'close'
  // A p2p call's signals travel over the chat (decision 0045).
  | 'sendSignal'
  | 'onSignal'
>;

/** The members of the media adapter's session that the guest's call uses (tests fake these). */
export type GuestMedia = Pick<
  MediaSession,
  | 'state'
  | 'on'
  | 'connect'
  | 'setMuted'
  | 'switchCamera'
  | 'switchMicrophone'
  | 'markAccepted'
  | 'qualityReport'
  | 'close'
> &
  /** A p2p call's media, told which agent the API named (decision 0045). */
  Partial<Pick<P2pSession, 'setPeer'>>;

/**
 * Makes the call's sessions; the app loads the adapters on first use (the pre-call pages stay
 * light). The call's method (decision 0045) picks the media: the media server's, or `p2p`.
 */
export type CallAdapters = {
  createChat: (options: ChatSessionOptions) => GuestChat;
  createMedia: (options: MediaSessionOptions) => GuestMedia;
  createP2pMedia: (options: P2pSessionOptions) => GuestMedia;
};

/**
 * The call's live adapters (docs/architecture.md, code style: live objects stay out of the
 * store). One call at a time.
 */
export type LiveCall = {
  chat: GuestChat;
  media: GuestMedia;
  room: string;
  nick: string;
  callId: string;
  unsubscribe: (() => void)[];
  /** Resolves when this part of the call is over: the agent left, the media ended, or a transfer. */
  ended: Promise<CallOutcome>;
  settle: (outcome: CallOutcome) => void;
  agentGoneTimer?: ReturnType<typeof setTimeout>;
  /** Since when the agent is missing from the call's chat room (`Date.now()`), while it is. */
  agentAwaySince?: number;
  /** What the guest last said in the call's room ({@link publishPresence}). */
  presence?: PresenceStatus;
  /**
   * The occupants who said they took the call (InCall), each with when it said so, until the API
   * confirms one of them ({@link confirmAgent}).
   */
  readonly claims: Map<string, number>;
  /** When this leg began to wait (`Date.now()`), for the estimate of the wait left. */
  waitingSince: number;
  /**
   * Sends what the media measured of this leg once an agent took it: at its end (once, before
   * the media is torn down) and when ICE failed. Never throws; the sending is not waited for.
   */
  reportQuality: (moment: 'end' | 'iceFailed') => Promise<void>;
};

/** How one leg of a call ends (docs/protocol.md steps 7 and 8). */
export type CallOutcome =
  | { kind: 'agentLeft' }
  /** This side closed it (the guest hung up): whoever waits for the call's end stops waiting. */
  | { kind: 'closed' }
  | { kind: 'mediaEnded'; reason: MediaState['endReason'] }
  | { kind: 'transfer'; toAgent: string | null; toCategoryId: number | null };

/**
 * The guest's live call and its media streams, owned by the page's services (no module
 * globals). Thunks and listeners open and close the call through `extra.connections`;
 * components read streams through `useStream` (@frontdesk/media/streams); the store only ever
 * sees plain data. This file is what the page holds before any call (the call's shape, what the
 * guest says in its room, closing it); opening and following the call is openCall.ts, loaded
 * with callFlow.ts when a call starts or resumes (decision 0012).
 */
export class Connections {
  call: LiveCall | null = null;
  /** This tab's claim on the call it has open (decision 0025: a duplicated tab stays out). */
  claim: CallClaim | null = null;
  readonly streams = new StreamRegistry();
}

function androidMobile(): boolean {
  return /Android.+Mobile/i.test(navigator.userAgent);
}

/**
 * The one place that decides what the guest says in its call's room (spec §4, docs/protocol.md
 * step 4): once the API confirmed an agent for the call, `InCall|agent|callId` — whatever the
 * page's visibility, and already while the stage still waits for the agent's media; before that,
 * waiting for round-robin (or the agent of a transfer), Away by the page's visibility.
 */
export function guestPresence(state: RootState, callId: string): PresenceStatus {
  const agent = state.call.agent;
  if (agent) return { state: 'InCall', peer: agent, callId };
  return {
    state: guestPresenceState({
      pageHidden: !state.call.pageVisible,
      androidMobile: androidMobile(),
      notificationsAllowed: state.call.notificationAllowed,
    }),
    // spec §4: round-robin, or the agent the guest was transferred to.
    peer: state.call.waitingFor ?? ROUND_ROBIN_PEER,
  };
}

/**
 * Says the guest's presence ({@link guestPresence}) in the call's room when it differs from what
 * the guest last said there. Every change of presence goes through here.
 */
export function publishPresence(call: LiveCall, state: RootState): void {
  const presence = guestPresence(state, call.callId);
  if (call.presence && formatPresenceStatus(call.presence) === formatPresenceStatus(presence))
    return;
  call.presence = presence;
  call.chat.setPresence(call.room, presence);
}

/** The guest's side of the call's state on the server (transfers, docs/protocol.md step 7). */
export async function readCallState(callId: string, ctx: CallContext) {
  const token = ctx.getState().guestAuth.access_token ?? undefined;
  return (await ctx.extra.api(routes.callState, { params: { callId }, token })).data;
}

/** Leaves the room, ends the media, closes the chat session (spec §4 "Ending a session"). */
export async function closeCall(connections: Connections): Promise<void> {
  const call = connections.call;
  if (!call) return;
  connections.call = null;
  connections.claim?.release();
  connections.claim = null;
  clearTimeout(call.agentGoneTimer);
  for (const off of call.unsubscribe) off();
  call.settle({ kind: 'closed' });
  await call.reportQuality('end');
  await call.chat
    .endCall(call.room, { endMedia: () => call.media.close() })
    .catch(() => call.media.close());
  await call.chat.close();
  connections.streams.clear();
}
