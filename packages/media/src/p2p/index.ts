// A p2p call's media (issue 23): one RTCPeerConnection between the guest's and the agent's
// browsers. This entry imports nothing of Janus, so a p2p call's bundle need not load it.
export { createP2pSession, P2pSession } from './session.ts';
export type { P2pSessionOptions } from './types.ts';
// The state either kind of session starts from, here too: this entry loads without Janus.
export { INITIAL_MEDIA_STATE } from '../session-state.ts';
