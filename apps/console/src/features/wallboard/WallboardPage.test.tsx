import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CALLS_CHANGED_NOTICE, TEAM_CHANGED_NOTICE, type Wallboard } from '@frontdesk/protocol';
import {
  answer,
  fakeApi,
  refusal,
  renderWithState,
  signedIn,
  zoeLogin,
  type FakeAnswer,
} from '../../test/render.tsx';
import { chatRoomChanged, chatStatusChanged, serverNoticeReceived } from '../chat/chatSlice.ts';
import { WallboardPage } from './WallboardPage.tsx';

const WALLBOARD = 'GET /reports/wallboard';
const COMPANY_ROOM = 'clock@conference.frontdesk.localhost';

/** The board as the API answers it `waitedMs` after its oldest guest began waiting. */
function boardOf(waiting: number, waitedMs = 40_000): Wallboard {
  const at = new Date();
  const since = new Date(at.getTime() - waitedMs).toISOString();
  return {
    at: at.toISOString(),
    waiting,
    longestWaitMs: waiting > 0 ? waitedMs : null,
    categories: [
      {
        id: 40,
        name: 'General',
        waiting,
        longestWaitMs: waiting > 0 ? waitedMs : null,
        oldestSince: waiting > 0 ? since : null,
      },
      { id: 41, name: 'Billing', waiting: 0, longestWaitMs: null, oldestSince: null },
    ],
    agents: [
      { id: 1, name: 'Cy Agent', state: waiting > 0 ? 'available' : 'inCall' },
      { id: 2, name: 'Di Agent', state: 'away' },
      { id: 9, name: 'Zoe Admin', state: 'available' },
    ],
    today: {
      answered: 3,
      abandoned: 2,
      serviceLevel: { thresholdSeconds: 20, target: 0.8, ratio: 0.6 },
    },
  };
}

function renderBoard(first: FakeAnswer) {
  const answers: Record<string, FakeAnswer> = { [WALLBOARD]: first };
  const { api, requests } = fakeApi(answers);
  const view = renderWithState(<WallboardPage />, signedIn(zoeLogin), { api });
  const wallboardRequests = () => requests.filter((r) => r.route === WALLBOARD).length;
  return { ...view, answers, wallboardRequests };
}

const waitingNow = () => screen.getByTestId('wallboard-waiting').textContent;

describe('the live wallboard', () => {
  afterEach(cleanup);

  it('shows who waits and for how long, the team by state and today’s figures', async () => {
    renderBoard(answer(boardOf(2)));
    await waitFor(() => expect(waitingNow()).toBe('2'));
    const longest = screen.getByTestId('wallboard-longest-wait');
    expect(longest.textContent).toMatch(/^0:4[01]$/);
    // The wait counts up by itself, with no request.
    await waitFor(() => expect(longest.textContent).toMatch(/^0:4[23]$/), { timeout: 3000 });

    const rows = within(screen.getByRole('table')).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'CategoryWaiting nowLongest wait',
      expect.stringMatching(/^General20:4\d$/),
      'Billing0–No one is waiting',
    ]);
    expect(screen.getByTestId('wallboard-state-available').textContent).toBe(
      '2 AvailableCy Agent, Zoe Admin',
    );
    expect(screen.getByTestId('wallboard-state-inCall').textContent).toBe('0 In a callNobody');
    expect(screen.getByTestId('wallboard-state-away').textContent).toBe('1 AwayDi Agent');
    expect(screen.getByTestId('wallboard-answered').textContent).toBe('3');
    expect(screen.getByTestId('wallboard-abandoned').textContent).toBe('2');
    expect(screen.getByTestId('wallboard-service-level').textContent).toBe('60%');
    expect(screen.getByText('Below target')).toBeTruthy();
    // Screen readers hear the counts, not the ticking clock.
    expect(screen.getByTestId('wallboard-announcement').textContent).toBe('2 waiting, 2 available');
  });

  it('measures the service level against the target the API names', async () => {
    const board = boardOf(0);
    board.today.serviceLevel = { thresholdSeconds: 30, target: 0.5, ratio: 0.6 };
    renderBoard(answer(board));
    await waitFor(() => expect(screen.getByText('On target')).toBeTruthy());
    expect(screen.getByText(/Answered within 30 s, target 50%/)).toBeTruthy();
  });

  it('loads again shortly after a notice, a colleague’s presence or a reconnection, and only then', async () => {
    const { store, answers, wallboardRequests } = renderBoard(answer(boardOf(0)));
    await waitFor(() => expect(waitingNow()).toBe('0'));
    expect(wallboardRequests()).toBe(1);

    answers[WALLBOARD] = answer(boardOf(1));
    store.dispatch(serverNoticeReceived(CALLS_CHANGED_NOTICE));
    await waitFor(() => expect(waitingNow()).toBe('1'));
    expect(screen.getByTestId('wallboard-announcement').textContent).toBe('1 waiting, 2 available');
    expect(wallboardRequests()).toBe(2);

    // A burst (a claim: the notice, then presences) makes one request.
    answers[WALLBOARD] = answer(boardOf(0));
    store.dispatch(serverNoticeReceived(TEAM_CHANGED_NOTICE));
    store.dispatch(
      chatRoomChanged({
        jid: COMPANY_ROOM,
        nick: 'staff-9',
        joined: true,
        auth: { status: true, tries: 0 },
        occupants: [],
      }),
    );
    store.dispatch(serverNoticeReceived(CALLS_CHANGED_NOTICE));
    await waitFor(() => expect(waitingNow()).toBe('0'));
    expect(screen.getByTestId('wallboard-state-inCall').textContent).toBe('1 In a callCy Agent');
    expect(wallboardRequests()).toBe(3);

    store.dispatch(chatStatusChanged('connected'));
    await waitFor(() => expect(wallboardRequests()).toBe(4));

    // What does not change the board asks for nothing.
    store.dispatch(serverNoticeReceived('something-else'));
    store.dispatch(
      chatRoomChanged({
        jid: 'gabc--call1@conference.frontdesk.localhost',
        nick: 'staff-9',
        joined: true,
        auth: { status: true, tries: 0 },
        occupants: [],
      }),
    );
    store.dispatch(chatStatusChanged('reconnecting'));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(wallboardRequests()).toBe(4);
  });

  it('tells a failed first load with a retry, and a failed refresh over the last board', async () => {
    const { store, answers, wallboardRequests } = renderBoard(
      refusal(503, 'unavailable', 'The service is not available.'),
    );
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The service is not available.',
    );
    answers[WALLBOARD] = answer(boardOf(2));
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(waitingNow()).toBe('2'));
    expect(screen.queryByRole('alert')).toBeNull();

    answers[WALLBOARD] = refusal(503, 'unavailable', 'The service is not available.');
    store.dispatch(serverNoticeReceived(CALLS_CHANGED_NOTICE));
    await waitFor(() => expect(wallboardRequests()).toBe(3));
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^Not updated since .+: The service is not available\. It tries again by itself\.$/,
    );
    expect(waitingNow()).toBe('2');
  });
});
