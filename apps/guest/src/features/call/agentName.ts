import type { AppStartListening } from '../../app/hooks.ts';
import { agentAccepted, agentNamed } from './callSlice.ts';
import { readCallState } from './connections.ts';

/**
 * Issue 18: the call screen names the agent who answered. The guest knows that agent only by its
 * chat nick; once an agent takes the call, the call's state on the server gives its first name.
 * Without it (the API unreachable a moment) the screen names the company instead.
 */
export function agentNameListeners(startListening: AppStartListening): void {
  startListening({
    actionCreator: agentAccepted,
    effect: async ({ payload: agent }, api) => {
      const callId = api.getState().report.callID;
      if (!callId) return;
      const state = await readCallState(callId, api).catch(() => null);
      if (state?.agentJabberUsername === agent) {
        api.dispatch(agentNamed({ agent, name: state.agentName }));
      }
    },
  });
}
