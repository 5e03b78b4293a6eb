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
import { prefetchCallFlow } from './callCode.ts';
import { publishPresence } from './connections.ts';
import { resumeListeners } from './resumeCall.ts';

/** The call's side effects: the components dispatch events, these reach the live call. */
export function callListeners(startListening: AppStartListening): void {
  resumeListeners(startListening);

  // The stages just before a call (the camera check, the choice of category): the call's code,
  // its chat and media adapters' too, is fetched ahead of the guest's click, after the page's
  // first screen (decision 0012).
  startListening({
    actionCreator: stageReached,
    effect: ({ payload: stage }, api) => {
      if (stage !== 'preview' && stage !== 'selection') return;
      prefetchCallFlow();
      api.extra.prefetchCallAdapters?.();
    },
  });

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

  // spec §4: the guest's presence follows the page's visibility while it waits (the Away rule);
  // guestPresence decides, so a change after an agent's claim leaves `InCall` as it is.
  startListening({
    matcher: isAnyOf(pageVisibilityChanged, notificationPermissionChanged),
    effect: (_action, api) => {
      const call = api.extra.connections.call;
      if (call) publishPresence(call, api.getState());
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
