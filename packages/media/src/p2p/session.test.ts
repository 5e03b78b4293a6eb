import type { SignalChannel } from '@frontdesk/protocol';
import { describe, expect, it } from 'vitest';
import { createP2pSession } from './session.ts';

describe('P2pSession.setPeer', () => {
  it('names the peer once: the same name again is nothing, another throws', () => {
    const signalling: SignalChannel = {
      sendSignal: () => Promise.resolve(),
      onSignal: () => () => undefined,
    };
    const session = createP2pSession({
      callId: 'gabcdefghijklmnopqrstuvwxy--p2p1',
      role: 'answerer',
      signalling,
      iceServers: () => Promise.resolve([]),
      display: 'guest',
      callType: 'video',
    });
    session.setPeer('agent1');
    session.setPeer('agent1');
    // A transfer's new agent is a new leg, whose media is a new session.
    expect(() => session.setPeer('agent2')).toThrow(/agent1.*agent2/);
  });
});
