import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithState, signedIn, claimedCall } from '../../test/render.tsx';
import { callSlice } from '../call/callSlice.ts';
import { QueuePanel } from './QueuePanel.tsx';

afterEach(cleanup);

const ROOM = 'clock-general@conference.frontdesk.localhost';
const GUEST = 'g12-visitor-abc';
const USERNAME = `g${'w'.repeat(25)}`;
const waitingSince = new Date(Date.now() - 30_000).toISOString();

const myCall = claimedCall('m', {
  callId: `g${'m'.repeat(25)}--mine`,
  reportId: 3,
  guestJabberUsername: 'g12-other-def',
});

// The workspace keeps the queue in sight during a call (issue 19): the agent sees who waits,
// but takes one call at a time.
describe('the queue during a call', () => {
  it('lists the waiting guest with its Accept disabled', () => {
    renderWithState(<QueuePanel />, {
      ...signedIn(),
      call: { ...callSlice.getInitialState(), phase: 'active', call: myCall },
      queue: {
        rooms: {
          [ROOM]: {
            jid: ROOM,
            kind: 'call',
            categoryId: 40,
            callId: `${USERNAME}--c1`,
            guest: GUEST,
            joined: true,
            error: null,
            occupants: [],
            waiting: [{ nick: GUEST, peer: 'roundRobin', waitingSince, position: 1 }],
          },
        },
        calls: {
          [GUEST]: {
            callId: `${USERNAME}--c1`,
            reportId: 9,
            guestUsername: USERNAME,
            guestJabberUsername: GUEST,
            categoryId: 40,
            callType: 'video',
            callMethod: 'mediaServer',
            agentJabberUsername: null,
            createdAt: waitingSince,
            answeredAt: null,
            welcomeAnswers: { name: 'Wanda Waiting' },
            previousCalls: 0,
            assignmentGroup: null,
            offer: null,
          },
        },
        callsError: null,
        claim: null,
      },
    });
    const accept = screen.getByRole('button', { name: /^Accept/ });
    expect((accept as HTMLButtonElement).disabled).toBe(true);
  });
});
