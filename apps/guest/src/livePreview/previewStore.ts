import {
  DEFAULT_AVERAGE_WAIT_MS,
  queuePlace,
  type CallType,
  type PreviewRequest,
} from '@frontdesk/protocol';
import type { MediaState } from '@frontdesk/media';
import type { GuestServices } from '../app/services.ts';
import { createStore, type AppStore } from '../app/store.ts';
import {
  agentAccepted,
  callRequested,
  chatStatusChanged,
  holdStarted,
  mediaStateChanged,
  queuePlaceChanged,
} from '../features/call/callSlice.ts';
import { companyLoaded } from '../features/company/companySlice.ts';
import { stageReached } from '../features/flow/flowSlice.ts';

/** The sample guest waits second of three. */
const SAMPLE_QUEUE = { position: 2, waiting: 3 };
/** The sample call's agent (no screen names the agent; the call needs one). */
const SAMPLE_AGENT = 'agent';
/** The key of the agent's stream on the sample call (a Janus feed id on a real one). */
export const SAMPLE_AGENT_FEED = 'sample-agent-feed';

/** The media of a sample call: connected, with the agent's feed once the agent took it. */
function sampleMedia(callType: CallType, withAgent: boolean): MediaState {
  const peer = withAgent ? 'Resumed' : 'Paused';
  return {
    status: 'connected',
    endReason: null,
    error: null,
    stages: {},
    feeds: withAgent
      ? [
          {
            janusId: SAMPLE_AGENT_FEED,
            display: SAMPLE_AGENT,
            onlyAudio: callType === 'voice',
            audioMuted: false,
            videoMuted: false,
          },
        ]
      : [],
    local: { audioMuted: false, videoMuted: false, onHold: false },
    streamsReady: { local: true, remote: withAgent },
    peerCall: peer,
    peerVideo: callType === 'video' ? peer : 'Paused',
    quality: { send: null, receive: null },
    reconnects: 0,
  };
}

/**
 * A store showing `request`'s draft company at its stage, brought there by the same events a
 * real visit dispatches (the company loaded, the call requested, the queue place, the agent's
 * media, a hold) but none of their side effects: nothing is signed in, joined or fetched. The
 * sample call is a video call unless the draft allows voice only; its guest waits second in the
 * queue of the draft's first category, whose average wait gives the estimate.
 */
export function previewStore(request: PreviewRequest, services: GuestServices): AppStore {
  const { company, stage, screen } = request;
  const store = createStore(
    { companyId: company.id, serviceType: 'Talk', webview: false, parentOrigin: null },
    services,
  );
  store.dispatch(companyLoaded(company));
  if (stage === 'waiting' || stage === 'ongoing') {
    const callType: CallType = company.callType === 'voice' ? 'voice' : 'video';
    const category = company.categories[0];
    store.dispatch(callRequested({ callType, categoryId: category?.id ?? 0 }));
    store.dispatch(chatStatusChanged('connected'));
    if (stage === 'waiting') {
      store.dispatch(mediaStateChanged(sampleMedia(callType, false)));
      const averageWaitMs = category?.averageWaitMs ?? DEFAULT_AVERAGE_WAIT_MS;
      store.dispatch(queuePlaceChanged(queuePlace(SAMPLE_QUEUE, averageWaitMs, 0)));
    } else {
      store.dispatch(agentAccepted(SAMPLE_AGENT));
      store.dispatch(mediaStateChanged(sampleMedia(callType, true)));
      if (screen === 'hold') store.dispatch(holdStarted());
    }
  }
  store.dispatch(stageReached(stage));
  return store;
}
