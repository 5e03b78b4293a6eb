import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallSummary } from '@frontdesk/protocol';
import {
  adaLogin,
  fakeApi,
  refusal,
  renderWithState,
  signedIn,
  unreachable,
} from '../../test/render.tsx';
import type { RootState } from '../../app/store.ts';
import { roomChanged } from './queueSlice.ts';
import { QueuePanel } from './QueuePanel.tsx';

afterEach(cleanup);

const ROOM = 'clock-general@conference.frontdesk.localhost';
const GUEST = 'g12-visitor-abc';
const guestUsername = 'fingerprint0001_suffix000001';

const summary: CallSummary = {
  callId: `${guestUsername}--call00000001`,
  reportId: 7,
  guestUsername,
  guestJabberUsername: GUEST,
  categoryId: 40,
  callType: 'voice',
  callMethod: 'mediaServer',
  agentJabberUsername: null,
  createdAt: '2026-11-22T00:59:00.000Z',
  answeredAt: null,
  welcomeAnswers: { name: 'Grace Guest' },
  previousCalls: 2,
  assignmentGroup: null,
  offer: null,
};

function queueState(calls = { [GUEST]: summary }): Partial<RootState> {
  const waitingSince = new Date(Date.now() - 75_000).toISOString();
  return {
    ...signedIn(),
    queue: {
      rooms: {
        [ROOM]: {
          jid: ROOM,
          kind: 'call',
          categoryId: 40,
          callId: summary.callId,
          guest: GUEST,
          joined: true,
          error: null,
          occupants: [
            {
              nick: GUEST,
              status: { state: 'OpenCall', peer: 'roundRobin' },
              waitingSince,
              show: undefined,
              self: false,
            },
          ],
          waiting: [{ nick: GUEST, peer: 'roundRobin', waitingSince, position: 1 }],
        },
      },
      calls,
      callsError: null,
      claim: null,
    },
  };
}

describe('queue', () => {
  it('lists a waiting guest with its category, wait, call type, answers and history', () => {
    renderWithState(<QueuePanel />, queueState());
    const guest = screen.getByTestId('queue-guest');
    expect(within(guest).getByRole('heading').textContent).toBe('General #1 · Guest ABC');
    expect(guest.textContent).toMatch(/waiting 1:1\d · Voice call · 2 previous calls/);
    expect(within(guest).getByText('Your name').nextSibling?.textContent).toBe('Grace Guest');
    expect(
      within(guest).getByRole('button', { name: 'Accept: General #1 · Guest ABC' }),
    ).toBeTruthy();
  });

  it('names the assignment group the guest picked, by its id once the company removed it', () => {
    const withGroup = (name: string | null) =>
      queueState({ [GUEST]: { ...summary, assignmentGroup: { id: 'es', name } } });
    renderWithState(<QueuePanel />, withGroup('Spanish speakers'));
    expect(screen.getByTestId('queue-guest').textContent).toMatch(
      /waiting 1:1\d · Voice call · Spanish speakers · 2 previous calls/,
    );
    cleanup();
    renderWithState(<QueuePanel />, withGroup(null));
    expect(screen.getByTestId('assignment-group').textContent).toBe('es');
    cleanup();
    renderWithState(<QueuePanel />, queueState());
    expect(screen.queryByTestId('assignment-group')).toBeNull();
  });

  it('marks a guest that round robin offers to this agent, and only that one', () => {
    const until = new Date(Date.now() + 20_000).toISOString();
    const offeredTo = (agentJabberUsername: string) =>
      queueState({ [GUEST]: { ...summary, offer: { agentJabberUsername, until } } });
    renderWithState(<QueuePanel />, offeredTo('staff-1'));
    expect(screen.getByTestId('queue-guest').dataset.offered).toBe('true');
    expect(screen.getByText('Offered to you')).toBeTruthy();
    cleanup();
    renderWithState(<QueuePanel />, offeredTo('staff-2'));
    expect(screen.getByTestId('queue-guest').dataset.offered).toBe('false');
    expect(screen.queryByText('Offered to you')).toBeNull();
  });

  it('tells the agent who took the call when another agent won the claim', async () => {
    const { api, requests } = fakeApi({
      'POST /calls/claim': refusal(409, 'already_claimed', 'Bo Agent has taken this call.'),
    });
    const { store } = renderWithState(<QueuePanel />, queueState(), { api });
    fireEvent.click(screen.getByRole('button', { name: 'Accept: General #1 · Guest ABC' }));
    expect(screen.getByRole('button', { name: 'Accept: General #1 · Guest ABC' }).textContent).toBe(
      'Accepting…',
    );
    expect(requests[0]?.body).toEqual({ guestUsername, categoryId: 40 });
    // The winner's presence names the guest; the guest leaves the open-call set.
    store.dispatch(
      roomChanged({
        snapshot: {
          jid: ROOM,
          nick: 'staff-1',
          joined: true,
          auth: { status: true, tries: 0 },
          occupants: [
            {
              nick: GUEST,
              status: { state: 'InCall', peer: 'staff-2', callId: summary.callId },
              waitingSince: undefined,
              show: undefined,
              self: false,
            },
            {
              nick: 'staff-2',
              status: { state: 'InCall', peer: GUEST, callId: summary.callId },
              waitingSince: undefined,
              show: undefined,
              self: false,
            },
          ],
        },
        waiting: [],
      }),
    );
    const notice = await screen.findByTestId('claim-notice');
    expect(notice.getAttribute('role')).toBe('alert');
    expect(notice.textContent).toMatch(/^Bo Agent has taken this call\./);
    expect(screen.queryByRole('listitem')).toBeNull();
  });

  it("groups the queue by category with each line's count and longest wait, the agent's first", () => {
    const BILLING_ROOM = 'clock-billing-call@conference.frontdesk.localhost';
    const OTHER = 'g12-visitor-def';
    const base = queueState();
    const baseQueue = base.queue ?? unreachable();
    const waitingSince = new Date(Date.now() - 200_000).toISOString();
    const state: Partial<RootState> = {
      ...base,
      auth: {
        ...signedIn().auth,
        login: { ...adaLogin, user: { ...adaLogin.user, categoryIds: [41] } },
      },
      queue: {
        ...baseQueue,
        rooms: {
          ...baseQueue.rooms,
          [BILLING_ROOM]: {
            jid: BILLING_ROOM,
            kind: 'call',
            categoryId: 41,
            callId: 'fingerprint0002_suffix000002--call00000002',
            guest: OTHER,
            joined: true,
            error: null,
            occupants: [],
            waiting: [{ nick: OTHER, peer: 'roundRobin', waitingSince, position: 1 }],
          },
        },
      },
    };
    renderWithState(<QueuePanel />, state);
    const groups = screen.getAllByTestId('queue-group');
    const [billing = unreachable(), general = unreachable()] = groups;
    // Billing, which Ada serves, comes before General though General is first in the company.
    expect(groups.map((group) => within(group).getAllByRole('heading')[0]?.textContent)).toEqual([
      'Billing',
      'General',
    ]);
    expect(billing.dataset.mine).toBe('true');
    expect(within(billing).getByText('Yours')).toBeTruthy();
    expect(within(billing).getByTestId('queue-group-count').textContent).toBe('1 waiting');
    expect(within(billing).getByTestId('queue-group-longest').textContent).toMatch(
      /^Longest wait 3:2\d$/,
    );
    expect(within(general).getByTestId('queue-group-longest').textContent).toMatch(
      /^Longest wait 1:1\d$/,
    );
    expect(within(general).getByTestId('queue-guest').dataset.guest).toBe(GUEST);
  });

  it('says so while the queue is joined, then when nobody waits', () => {
    const empty = {
      ...queueState(),
      queue: { ...(queueState().queue ?? unreachable()), rooms: {} },
    };
    const COMPANY = 'clock@conference.frontdesk.localhost';
    const company = (joined: boolean) => ({
      ...empty,
      queue: {
        ...empty.queue,
        rooms: {
          [COMPANY]: {
            jid: COMPANY,
            kind: 'company' as const,
            categoryId: null,
            callId: null,
            guest: null,
            joined,
            error: null,
            occupants: [],
            waiting: [],
          },
        },
      },
    });
    renderWithState(<QueuePanel />, company(false));
    expect(screen.getByTestId('queue-loading').textContent).toMatch(/Joining your team/);
    expect(screen.queryByTestId('queue-empty')).toBeNull();
    cleanup();
    renderWithState(<QueuePanel />, company(true));
    expect(screen.getByTestId('queue-empty').textContent).toMatch(/Nobody is waiting right now/);
    expect(screen.queryByTestId('queue-group')).toBeNull();
  });
});
