import { isAnyOf } from '@reduxjs/toolkit';
import type { AppStartListening } from '../../app/hooks.ts';
import { stageReached } from '../flow/flowSlice.ts';
import {
  agentAccepted,
  backCameraToggled,
  cameraChosen,
  mediaStateChanged,
  microphoneChosen,
  muteClicked,
  notificationPermissionChanged,
  pageVisibilityChanged,
} from './callSlice.ts';
import { waitingPresence } from './connections.ts';
import { resumeListeners } from './resumeCall.ts';

/** The call's side effects: the components dispatch events, these reach the live call. */
export function callListeners(startListening: AppStartListening): void {
  resumeListeners(startListening);

  // docs/protocol.md step 4: the agent took the call and its media arrived ⇒ stage ongoing.
  startListening({
    matcher: isAnyOf(agentAccepted, mediaStateChanged),
    effect: (_action, api) => {
      const { flow, call } = api.getState();
      if (flow.stage === 'waiting' && call.agent !== null && call.peerCall === 'Resumed') {
        api.dispatch(stageReached('ongoing'));
      }
    },
  });

  // spec §4: while waiting, the guest's presence follows the page's visibility (the Away rule).
  startListening({
    matcher: isAnyOf(pageVisibilityChanged, notificationPermissionChanged),
    effect: (_action, api) => {
      const state = api.getState();
      const call = api.extra.connections.call;
      // An agent has taken the call (its stage follows when the media does): the guest's
      // presence names the call now, never the queue again.
      if (state.flow.stage !== 'waiting' || state.call.agent !== null || !call) return;
      call.chat.setPresence(call.room, waitingPresence(state));
    },
  });

  startListening({
    actionCreator: muteClicked,
    effect: async ({ payload }, api) => {
      await api.extra.connections.call?.media.setMuted(payload.kind, payload.muted);
    },
  });

  // After the toggle: the back camera when the guest now asked for it, the front one otherwise.
  startListening({
    actionCreator: backCameraToggled,
    effect: async (_action, api) => {
      const facingMode = api.getState().call.isBackCam ? 'environment' : 'user';
      await api.extra.connections.call?.media.switchCamera({ facingMode });
    },
  });

  startListening({
    actionCreator: cameraChosen,
    effect: async ({ payload: deviceId }, api) => {
      await api.extra.connections.call?.media.switchCamera({ deviceId });
    },
  });

  startListening({
    actionCreator: microphoneChosen,
    effect: async ({ payload: deviceId }, api) => {
      await api.extra.connections.call?.media.switchMicrophone(deviceId);
    },
  });
}
