import { createAction, createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import type {
  CallPeer,
  CallType,
  PeerCallState,
  QueuePlace,
  RemoteFeed,
  StreamsReady,
} from '@frontdesk/protocol';
import type { ConnectionStatus } from '@frontdesk/protocol';
import type { MediaState } from '@frontdesk/media';

/**
 * spec §3 "Call status state", plus what the call screens need to show: the chosen call type
 * and category, the queue place, the agent who took the call, and the live status of the two
 * connections. Streams stay in the adapters (features/call/connections.ts); the chat of the call
 * is the chat feature's (features/chat/chatSlice.ts).
 */
export type CallState = {
  callType: CallType;
  categoryId: number | null;
  queue: QueuePlace | null;
  /** The agent's jabber username once it took the call. */
  agent: string | null;
  /** What the call screen calls that agent: its first name, once the API gave it (issue 18). */
  agentName: string | null;
  /** After a transfer to a named agent: the agent this guest now waits for (spec §4 peer). */
  waitingFor: string | null;
  /** spec §3: `Paused` while the agent holds the call or its media is not in the room. */
  peerCall: PeerCallState;
  /** What the media says of the peer's call, hold aside: `peerCall` again once a hold ends. */
  peerMedia: PeerCallState;
  peerVideo: PeerCallState;
  OnHoldCount: number;
  onHold: boolean;
  pageVisible: boolean;
  janusSessionEnded: boolean;
  peers: CallPeer[];
  feeds: RemoteFeed[];
  callStarted: boolean;
  callInitiated: boolean;
  mutedVideoJIDs: string[];
  mutedAudioJIDs: string[];
  localAudioMuted: boolean;
  localVideoMuted: boolean;
  deviceConfigOpen: boolean;
  deviceConfigChanged: boolean;
  isZoomed: boolean;
  isBackCam: boolean;
  callVolume: number;
  streamsReady: StreamsReady;
  notificationAllowed: boolean;
  connection: {
    chat: ConnectionStatus;
    media: MediaState['status'];
  };
  quality: MediaState['quality'];
  mediaError: string | null;
  endConfirmOpen: boolean;
  /**
   * The agent's side dropped (gone from the call's chat room or its media) and may come back:
   * the call screen says it reconnects instead of showing a frozen picture (decision 0025).
   */
  peerAway: boolean;
  /** How the call ended, when the guest is told in words: the agent hung up or was lost. */
  endNotice: 'agentEnded' | 'agentGone' | null;
  /** This page took up a call a reload interrupted (decision 0025). */
  resumed: boolean;
  /**
   * Whether the call is recorded: never a p2p call, which passes no server (decision 0045); a
   * media-server call as the API said when it gave the room (the guest may have declined,
   * decision 0030), `null` until then.
   */
  recorded: boolean | null;
};

const initialState: CallState = {
  callType: 'video',
  categoryId: null,
  queue: null,
  agent: null,
  agentName: null,
  waitingFor: null,
  peerCall: 'Paused',
  peerMedia: 'Paused',
  peerVideo: 'Paused',
  OnHoldCount: 0,
  onHold: false,
  pageVisible: true,
  janusSessionEnded: false,
  peers: [],
  feeds: [],
  callStarted: false,
  callInitiated: false,
  mutedVideoJIDs: [],
  mutedAudioJIDs: [],
  localAudioMuted: false,
  localVideoMuted: false,
  deviceConfigOpen: false,
  deviceConfigChanged: false,
  isZoomed: true,
  isBackCam: false,
  callVolume: 1,
  streamsReady: { local: false, remote: false },
  notificationAllowed: false,
  connection: { chat: 'idle', media: 'idle' },
  quality: { send: null, receive: null },
  mediaError: null,
  endConfirmOpen: false,
  peerAway: false,
  endNotice: null,
  resumed: false,
  recorded: null,
};

/**
 * spec §4, the peer's call turning to `next`. To `Paused` — the agent holds the call, or its
 * media left the room — raises `OnHoldCount` and clears the peers and both mute lists; our own
 * media reconnecting is no hold (unless the agent said so). To `Resumed` — the first remote
 * media, or the media again after a hold — the call is on, with its peer recorded.
 */
function peerCallTurned(state: CallState, next: PeerCallState, { held = false } = {}) {
  if (state.peerCall === 'Resumed' && next === 'Paused') {
    if (held || state.connection.media === 'connected') state.OnHoldCount += 1;
    state.peers = [];
  } else if (state.peerCall === 'Paused' && next === 'Resumed') {
    state.callStarted = true;
    state.peers = state.feeds.map((feed) => ({
      peerJID: state.agent ?? feed.display,
      janusId: feed.janusId,
      profileImageUrl: null,
      username: feed.display,
    }));
  }
  if (next === 'Paused') {
    state.mutedAudioJIDs = [];
    state.mutedVideoJIDs = [];
  }
  state.peerCall = next;
}

/** The guest chose a camera in the device panel; a listener switches the media to it. */
export const cameraChosen = createAction<string>('call/cameraChosen');
/** The guest chose a microphone in the device panel; a listener switches the media to it. */
export const microphoneChosen = createAction<string>('call/microphoneChosen');

export const callSlice = createSlice({
  name: 'call',
  initialState,
  reducers: {
    roomOpened(state, action: PayloadAction<{ recorded: boolean }>) {
      state.recorded = action.payload.recorded;
    },
    callRequested(state, action: PayloadAction<{ callType: CallType; categoryId: number }>) {
      state.callType = action.payload.callType;
      state.categoryId = action.payload.categoryId;
      state.callInitiated = true;
    },
    /**
     * decision 0025: the API gave back the call a reload interrupted; an answered call has its
     * agent (the API named it) and counts as started, so its end leads to the rating.
     */
    callResumed(
      state,
      action: PayloadAction<{
        callType: CallType;
        categoryId: number;
        agent: string | null;
        waitingFor: string | null;
      }>,
    ) {
      const { callType, categoryId, agent, waitingFor } = action.payload;
      state.callType = callType;
      state.categoryId = categoryId;
      state.callInitiated = true;
      state.agent = agent;
      state.waitingFor = waitingFor;
      state.callStarted = agent !== null;
      state.resumed = true;
    },
    peerAwayChanged(state, action: PayloadAction<boolean>) {
      state.peerAway = action.payload;
    },
    callEndNoticed(state, action: PayloadAction<'agentEnded' | 'agentGone'>) {
      state.endNotice ??= action.payload;
    },
    chatStatusChanged(state, action: PayloadAction<ConnectionStatus>) {
      state.connection.chat = action.payload;
    },
    queuePlaceChanged(state, action: PayloadAction<QueuePlace | null>) {
      state.queue = action.payload;
    },
    /** An agent published `InCall|<this guest>|<this call>` (docs/protocol.md step 4). */
    agentAccepted(state, action: PayloadAction<string>) {
      if (state.agent !== action.payload) state.agentName = null;
      state.agent = action.payload;
      state.queue = null;
    },
    /** The API named the agent who took the call; a name for another agent comes too late. */
    agentNamed(state, action: PayloadAction<{ agent: string; name: string | null }>) {
      if (state.agent === action.payload.agent) state.agentName = action.payload.name;
    },
    mediaStateChanged(state, action: PayloadAction<MediaState>) {
      const media = action.payload;
      state.connection.media = media.status;
      state.janusSessionEnded = media.status === 'closed';
      state.feeds = [...media.feeds];
      state.streamsReady = media.streamsReady;
      state.peerVideo = media.peerVideo;
      state.localAudioMuted = media.local.audioMuted;
      state.localVideoMuted = media.local.videoMuted;
      state.quality = media.quality;
      state.mediaError = media.error?.message ?? null;
      state.mutedAudioJIDs = media.feeds.filter((f) => f.audioMuted).map((f) => f.display);
      state.mutedVideoJIDs = media.feeds.filter((f) => f.videoMuted).map((f) => f.display);
      state.peerMedia = media.peerCall;
      peerCallTurned(state, state.onHold ? 'Paused' : media.peerCall);
    },
    /** The agent announced `CallOnHold`: it stopped sending, the peer's call is `Paused`. */
    holdStarted(state) {
      state.onHold = true;
      peerCallTurned(state, 'Paused', { held: true });
    },
    holdEnded(state) {
      state.onHold = false;
      peerCallTurned(state, state.peerMedia);
    },
    /** docs/protocol.md step 7: the call moves to another agent or category; wait again. */
    callTransferred(
      state,
      action: PayloadAction<{ toAgent: string | null; toCategoryId: number | null }>,
    ) {
      state.agent = null;
      state.agentName = null;
      state.waitingFor = action.payload.toAgent;
      state.categoryId = action.payload.toCategoryId ?? state.categoryId;
      state.onHold = false;
      state.peerAway = false;
      state.peerCall = 'Paused';
      state.peerMedia = 'Paused';
      state.peerVideo = 'Paused';
      state.feeds = [];
      state.queue = null;
    },
    pageVisibilityChanged(state, action: PayloadAction<boolean>) {
      state.pageVisible = action.payload;
    },
    deviceConfigToggled(state) {
      state.deviceConfigOpen = !state.deviceConfigOpen;
    },
    zoomToggled(state) {
      state.isZoomed = !state.isZoomed;
    },
    /** The guest flipped the camera; a listener asks the media for the other one. */
    backCameraToggled(state) {
      state.isBackCam = !state.isBackCam;
    },
    callVolumeChanged(state, action: PayloadAction<number>) {
      state.callVolume = Math.min(1, Math.max(0, action.payload));
    },
    endConfirmToggled(state, action: PayloadAction<boolean>) {
      state.endConfirmOpen = action.payload;
    },
    notificationPermissionChanged(state, action: PayloadAction<boolean>) {
      state.notificationAllowed = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder.addMatcher(isAnyOf(cameraChosen, microphoneChosen), (state) => {
      state.deviceConfigChanged = true;
    });
  },
});

export const {
  roomOpened,
  callRequested,
  callResumed,
  peerAwayChanged,
  callEndNoticed,
  chatStatusChanged,
  queuePlaceChanged,
  agentAccepted,
  agentNamed,
  mediaStateChanged,
  holdStarted,
  holdEnded,
  callTransferred,
  pageVisibilityChanged,
  deviceConfigToggled,
  zoomToggled,
  backCameraToggled,
  callVolumeChanged,
  endConfirmToggled,
  notificationPermissionChanged,
} = callSlice.actions;

/**
 * The guest pressed the microphone's or the camera's mute button; a listener asks the media to
 * mute (or unmute) and the media's state, not this event, changes the store.
 */
export const muteClicked = createAction<{ kind: 'audio' | 'video'; muted: boolean }>(
  'call/muteClicked',
);

/**
 * Why the call screen says the call reconnects (decision 0025): this side's own connection
 * dropped (`self`), the page took up a call after a reload and waits for the agent's media
 * (`resuming`), or the agent's side dropped (`agent`); `null` while the call is whole.
 */
export function callReconnecting(call: CallState): 'self' | 'resuming' | 'agent' | null {
  if (call.connection.media === 'reconnecting' || call.connection.chat === 'reconnecting')
    return 'self';
  if (call.peerAway) return 'agent';
  if (call.resumed && !call.onHold && call.peerCall !== 'Resumed') return 'resuming';
  return null;
}
