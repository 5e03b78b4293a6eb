import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CALLS_CHANGED_NOTICE, type Supervisor } from '@frontdesk/protocol';
import {
  answer,
  fakeApi,
  renderWithState,
  signedIn,
  zoeLogin,
  type FakeAnswer,
} from '../../test/render.tsx';
import { serverNoticeReceived } from '../chat/chatSlice.ts';
import { SupervisorPage } from './SupervisorPage.tsx';

afterEach(cleanup);

const SUPERVISOR = 'GET /reports/supervisor';
const CALL = 'gaaaaaaaaaaaaaaaaaaaaaaaaa--call1';
const WAITING = 'gbbbbbbbbbbbbbbbbbbbbbbbbb--call2';

/** The floor: Cy in a call with Grace (on hold or not), Di away, one guest waiting. */
function floor({ onHold = false, waiting = true } = {}): Supervisor {
  const at = new Date();
  const ago = (ms: number) => new Date(at.getTime() - ms).toISOString();
  return {
    at: at.toISOString(),
    agents: [
      { id: 2, name: 'Di Agent', state: 'away', calls: [] },
      {
        id: 1,
        name: 'Cy Agent',
        state: 'inCall',
        calls: [
          {
            callId: CALL,
            guestJabberUsername: 'g12-visitor-abc',
            guestName: 'Grace Guest',
            categoryId: 40,
            categoryName: 'General',
            callType: 'video',
            answeredAt: ago(125_000),
            onHold,
            heldSince: onHold ? ago(30_000) : null,
          },
        ],
      },
    ],
    waiting: waiting
      ? [
          {
            callId: WAITING,
            guestJabberUsername: 'g12-visitor-def456',
            guestName: null,
            categoryId: 41,
            categoryName: 'Billing',
            callType: 'voice',
            since: ago(45_000),
          },
        ]
      : [],
  };
}

function renderFloor(first: FakeAnswer) {
  const answers: Record<string, FakeAnswer> = { [SUPERVISOR]: first };
  const { api } = fakeApi(answers);
  const view = renderWithState(<SupervisorPage />, signedIn(zoeLogin), { api });
  return { ...view, answers };
}

describe('the supervisor view', () => {
  it('shows who is in which call, for how long, and who waits', async () => {
    renderFloor(answer(floor()));
    const call = await screen.findByTestId('supervisor-call');
    expect(call.textContent).toMatch(/^Grace GuestGeneral · Video call · in the call for 2:0\d$/);
    expect(call.dataset.hold).toBe('false');
    // Those in a call come first.
    expect(
      screen
        .getAllByTestId('supervisor-agent')
        .map((agent) => agent.querySelector('h4')?.textContent),
    ).toEqual(['Cy Agent', 'Di Agent']);
    const wait = screen.getByTestId('supervisor-wait');
    expect(wait.textContent).toMatch(/^Guest DEF456Billing · Voice call · waiting for 0:4\d$/);
    expect(
      within(screen.getByTestId('supervisor-inCalls')).getByRole('definition').textContent,
    ).toBe('1');
  });

  it('follows a notice: the call put on hold, nobody waiting any more', async () => {
    const { answers, store } = renderFloor(answer(floor()));
    await screen.findByTestId('supervisor-call');
    answers[SUPERVISOR] = answer(floor({ onHold: true, waiting: false }));
    store.dispatch(serverNoticeReceived(CALLS_CHANGED_NOTICE));
    await waitFor(() => expect(screen.getByTestId('supervisor-call').dataset.hold).toBe('true'));
    expect(screen.getByTestId('supervisor-hold').textContent).toMatch(/^On hold 0:3\d$/);
    expect(screen.getByTestId('supervisor-nobody-waiting').textContent).toBe(
      'Nobody is waiting right now.A guest who calls shows here with how long they have waited.',
    );
  });
});
