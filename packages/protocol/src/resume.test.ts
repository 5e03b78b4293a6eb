import { describe, expect, it } from 'vitest';
import { agentAbsence, PEER_GONE_GRACE_MS, PEER_GONE_MS, peerAbsence } from './resume.ts';

describe('peerAbsence (decision 0025)', () => {
  it('a peer in both rooms, or in what this side can see of them, is not away', () => {
    expect(peerAbsence({ chat: true, media: true })).toEqual({ away: false, goneAfterMs: null });
    expect(peerAbsence({ chat: null, media: null })).toEqual({ away: false, goneAfterMs: null });
    expect(peerAbsence({ chat: true, media: null })).toEqual({ away: false, goneAfterMs: null });
  });

  it('gone from both servers: gone after the short wait', () => {
    expect(peerAbsence({ chat: false, media: false })).toEqual({
      away: true,
      goneAfterMs: PEER_GONE_MS,
    });
  });

  it('gone from the chat room only (this side’s media down too, or its media still flows): the long grace', () => {
    expect(peerAbsence({ chat: false, media: null }).goneAfterMs).toBe(PEER_GONE_GRACE_MS);
    expect(peerAbsence({ chat: false, media: true }).goneAfterMs).toBe(PEER_GONE_GRACE_MS);
  });

  it('gone from the media only: reconnecting, never gone by that alone', () => {
    expect(peerAbsence({ chat: true, media: false })).toEqual({ away: true, goneAfterMs: null });
    expect(peerAbsence({ chat: null, media: false })).toEqual({ away: true, goneAfterMs: null });
  });
});

describe('agentAbsence (decision 0027)', () => {
  it('an agent gone from both servers may be reloading its console: gone only after the long grace', () => {
    expect(agentAbsence({ chat: false, media: false })).toEqual({
      away: true,
      goneAfterMs: PEER_GONE_GRACE_MS,
    });
    expect(agentAbsence({ chat: false, media: null }).goneAfterMs).toBe(PEER_GONE_GRACE_MS);
  });

  it('otherwise as any peer: present, or reconnecting its media without ever being gone by that', () => {
    expect(agentAbsence({ chat: true, media: true })).toEqual({ away: false, goneAfterMs: null });
    expect(agentAbsence({ chat: true, media: false })).toEqual({ away: true, goneAfterMs: null });
  });
});
