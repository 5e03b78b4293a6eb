import { describe, expect, it } from 'vitest';
import { agentQueue, waitingGuests } from './queue.ts';
import type { Occupant, RoomSnapshot } from './types.ts';

const T0 = Date.parse('2026-11-21T10:00:00Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

function guest(nick: string, text: Partial<Occupant> = {}): Occupant {
  return {
    nick,
    status: { state: 'OpenCall', peer: 'roundRobin' },
    waitingSince: undefined,
    show: undefined,
    self: false,
    ...text,
  };
}

const room = (occupants: Occupant[]): RoomSnapshot => ({
  jid: 'sales@conference.example',
  nick: 'me',
  joined: true,
  auth: { status: true, tries: 0 },
  occupants,
});

describe('the queue', () => {
  it('orders the open-call set by the announced time, unannounced last', () => {
    const queue = waitingGuests(
      room([
        guest('late', { waitingSince: at(30) }),
        guest('old-client'),
        guest('agent', { status: { state: 'Away' } }),
        guest('taken', {
          status: { state: 'OpenCall', peer: 'staff-1', callId: `g${'a'.repeat(25)}--x1` },
        }),
        guest('early', { waitingSince: at(10) }),
      ]),
    );
    expect(queue.map((g) => [g.nick, g.position])).toEqual([
      ['early', 1],
      ['late', 2],
      ['old-client', 3],
    ]);
  });

  it('shows an agent the guests waiting for anyone or for it, with their waits', () => {
    const snapshot = room([
      guest('any', { waitingSince: at(0) }),
      guest('mine', { waitingSince: at(5), status: { state: 'OpenCall', peer: 'staff-1' } }),
      guest('theirs', { waitingSince: at(6), status: { state: 'OpenCall', peer: 'staff-2' } }),
      guest('no-peer', { waitingSince: at(7), status: { state: 'OpenCall' } }),
    ]);
    expect(
      agentQueue(snapshot, 'staff-1', T0 + 10_000).map((g) => [g.nick, g.position, g.waitedMs]),
    ).toEqual([
      ['any', 1, 10_000],
      ['mine', 2, 5_000],
      ['no-peer', 4, 3_000],
    ]);
  });
});
